/* parseq.c - one worker thread parsing feeds (parseq.h). Two FIFO lists
 * under one mutex: jobs to parse, jobs parsed. The caller's thread alone
 * counts what is pending, so asking needs no lock. */
#include "parseq.h"

#include "core/err.h"

#include <pthread.h>
#include <stdlib.h>

struct list {
	struct fr_parseq_job *head, *tail;
};

struct fr_parseq {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;  /* signalled when a job or stop arrives */
	struct list todo, done;
	int stop;
	int idle;           /* the worker waits on cv: a submit must wake it */
	size_t pending;     /* the caller's count: submitted, not taken */
};

static void
push(struct list *l, struct fr_parseq_job *j)
{
	j->next = NULL;
	if (l->tail)
		l->tail->next = j;
	else
		l->head = j;
	l->tail = j;
}

static struct fr_parseq_job *
pop(struct list *l)
{
	struct fr_parseq_job *j = l->head;

	if (j) {
		l->head = j->next;
		if (!l->head)
			l->tail = NULL;
		j->next = NULL;
	}
	return j;
}

static void
parse(struct fr_parseq_job *j)
{
	struct fr_feed_opts po = {.base_url = j->base_url, .content_type = j->content_type};

	j->feed = NULL;
	j->err[0] = '\0';
	j->rc = fr_feed_parse(j->body ? j->body : "", j->len, &po, &j->feed, j->err,
			      sizeof(j->err));
}

static void *
worker(void *arg)
{
	struct fr_parseq *q = arg;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		struct fr_parseq_job *j;

		while (!q->stop && !q->todo.head) {
			q->idle = 1;
			pthread_cond_wait(&q->cv, &q->mu);
			q->idle = 0;
		}
		if (q->stop)
			break;
		j = pop(&q->todo);
		pthread_mutex_unlock(&q->mu);
		parse(j);
		pthread_mutex_lock(&q->mu);
		push(&q->done, j);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

int
fr_parseq_new(struct fr_parseq **out, char *err, size_t errlen)
{
	struct fr_parseq *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return fr_errf(err, errlen, "out of memory");
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->cv, NULL);
	if (pthread_create(&q->thread, NULL, worker, q) != 0) {
		pthread_cond_destroy(&q->cv);
		pthread_mutex_destroy(&q->mu);
		free(q);
		return fr_errf(err, errlen, "cannot start the parser thread");
	}
	*out = q;
	return 0;
}

void
fr_parseq_job_free(struct fr_parseq_job *j)
{
	if (!j)
		return;
	fr_feed_free(j->feed);
	if (j->free_arg)
		j->free_arg(j->arg);
	free(j->body);
	free(j->base_url);
	free(j->content_type);
	free(j);
}

void
fr_parseq_free(struct fr_parseq *q)
{
	struct fr_parseq_job *j;

	if (!q)
		return;
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->thread, NULL);
	while ((j = pop(&q->todo)) != NULL)
		fr_parseq_job_free(j);
	while ((j = pop(&q->done)) != NULL)
		fr_parseq_job_free(j);
	pthread_cond_destroy(&q->cv);
	pthread_mutex_destroy(&q->mu);
	free(q);
}

void
fr_parseq_submit(struct fr_parseq *q, struct fr_parseq_job *job)
{
	pthread_mutex_lock(&q->mu);
	push(&q->todo, job);
	if (q->idle)
		pthread_cond_signal(&q->cv);
	pthread_mutex_unlock(&q->mu);
	q->pending++;
}

struct fr_parseq_job *
fr_parseq_take(struct fr_parseq *q)
{
	struct fr_parseq_job *j;

	if (!q->pending)
		return NULL;
	pthread_mutex_lock(&q->mu);
	j = pop(&q->done);
	pthread_mutex_unlock(&q->mu);
	if (j)
		q->pending--;
	return j;
}

size_t
fr_parseq_pending(const struct fr_parseq *q)
{
	return q->pending;
}
