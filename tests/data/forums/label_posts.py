# label_posts.py - writes posts.tsv (next to this file): every post of the real
# thread pages of ../shared/data/forums, one line each, with its author, time
# (UTC) and own text (quotes and signatures left out), read with each engine's
# own markup (class names, ids: what the page analyser must never use), so that
# the labels are independent of lib/forum. Checked by reading the pages.
#   python3 tests/data/forums/label_posts.py
# Python's html.parser and a small tree; no third-party module.
import os, re, sys
from datetime import datetime, timezone, timedelta
from zoneinfo import ZoneInfo
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
D = os.path.join(HERE, '../../../../shared/data/forums/')
VOID = {'area','base','br','col','embed','hr','img','input','link','meta','param','source','track','wbr'}
SKIP = {'script','style','noscript','template','select','textarea','iframe','object','svg'}
BLOCK = {'p','div','li','tr','td','th','blockquote','h1','h2','h3','h4','h5','h6','ul','ol','table','pre','dd','dt','hr','article','section','aside','header','footer'}

class N:
    def __init__(s, tag, attrs, parent):
        s.tag = tag; s.a = dict(attrs); s.parent = parent; s.kids = []
        s.cls = (s.a.get('class') or '').split()
    def walk(s):
        for k in s.kids:
            if isinstance(k, N):
                yield k
                yield from k.walk()
    def all(s, pred): return [n for n in s.walk() if pred(n)]
    def first(s, pred): return next((n for n in s.walk() if pred(n)), None)
    def text(s, out=None):
        """Visible text; out(n) true leaves n's subtree out."""
        buf = []
        def w(n):
            for k in n.kids:
                if isinstance(k, str): buf.append(k)
                elif k.tag in SKIP or (out and out(k)): buf.append(' ')
                else:
                    if k.tag in BLOCK or k.tag == 'br': buf.append(' ')
                    w(k)
                    if k.tag in BLOCK: buf.append(' ')
        w(s)
        return re.sub(r'\s+', ' ', ''.join(buf)).strip()

class B(HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True); s.root = N('#root', [], None); s.cur = s.root
    def handle_starttag(s, t, a):
        n = N(t, [(k, v or '') for k, v in a], s.cur); s.cur.kids.append(n)
        if t not in VOID: s.cur = n
    def handle_startendtag(s, t, a): s.cur.kids.append(N(t, [(k, v or '') for k, v in a], s.cur))
    def handle_endtag(s, t):
        n = s.cur
        while n is not None and n.tag != t: n = n.parent
        if n is not None and n.parent is not None: s.cur = n.parent
    def handle_data(s, d): s.cur.kids.append(d)

def parse(f, enc):
    b = B(); b.feed(open(D + f, 'rb').read().decode(enc, errors='replace')); return b.root

def C(*names): return lambda n: all(x in n.cls for x in names)
def iso(s):
    s = s.strip().replace('Z', '+00:00')
    t = datetime.fromisoformat(s)
    if t.tzinfo is None: t = t.replace(tzinfo=timezone.utc)
    return t.astimezone(timezone.utc)
def unix(s): return datetime.fromtimestamp(int(s), timezone.utc)
def shown(s, fmt, zone='UTC'):
    return datetime.strptime(s.strip(), fmt).replace(tzinfo=ZoneInfo(zone)).astimezone(timezone.utc)
def own(body, out):
    # A post that is only a quote: a post's text is never empty, the quote is its text.
    return body.text(out) or body.text()

def under(n, pred):
    while n is not None:
        if pred(n): return True
        n = n.parent
    return False

# ---- one function per engine: root -> [(author, datetime, text)] ----

def phpbb3(r, zone='UTC', fmt='%a %b %d, %Y %I:%M %p'):
    out = []
    for p in r.all(lambda n: n.tag == 'div' and 'post' in n.cls and re.match(r'p\d+$', n.a.get('id', ''))):
        au = p.first(C('author'))
        name = au.first(lambda n: n.tag == 'a' and 'memberlist.php' in n.a.get('href', '')) or au.first(lambda n: n.tag == 'strong')
        t = au.text().split('»')[-1].strip()
        body = p.first(C('content'))
        out.append((name.text(), shown(t, fmt, zone), own(body, lambda n: n.tag == 'blockquote')))
    return out

def vb3(r, zone='UTC'):
    out = []
    for m in r.all(lambda n: re.match(r'post_message_\d+$', n.a.get('id', ''))):
        pid = m.a['id'][len('post_message_'):]
        tab = r.first(lambda n: n.a.get('id') == 'post' + pid)
        t = tab.first(C('thead')).text()
        name = r.first(lambda n: n.a.get('id') == 'postmenu_%s_menu' % pid).first(C('thead')).text()
        quote = lambda n: n.tag == 'div' and n.kids and any(isinstance(k, N) and 'smallfont' in k.cls and k.text() == 'Quote:' for k in n.kids)
        out.append((name, shown(t, '%Y-%m-%d, %H:%M', zone), own(m, quote)))
    return out

def vb4(r, zone='UTC', fmt='%m-%d-%Y, %I:%M %p'):
    out = []
    for p in r.all(C('postcontainer')):
        name = p.first(lambda n: n.tag == 'a' and 'username' in n.cls) or p.first(C('username'))
        d = p.first(C('date')) or p.first(C('userstats')).first(lambda n: n.tag == 'dd')
        body = p.first(lambda n: 'postcontent' in n.cls)
        out.append((name.text(), shown(d.text(), fmt, zone),
                    own(body, lambda n: 'bbcode_container' in n.cls or 'tapatalkSignatur' in n.cls)))
    return out

def vb5(r):
    out = []
    for p in r.all(lambda n: n.tag == 'li' and 'b-post' in n.cls):
        au = p.first(lambda n: n.a.get('itemprop') == 'author')
        name = au.first(lambda n: n.tag == 'a' and n.text()) if au else None
        t = p.first(lambda n: n.tag == 'time').a['datetime']
        body = p.first(C('js-post__content-text'))
        out.append((name.text(), iso(t), own(body, lambda n: 'bbcode_container' in n.cls)))
    return out

def xf1(r):
    out = []
    for p in r.all(lambda n: n.tag == 'li' and 'message' in n.cls and re.match(r'post-\d+$', n.a.get('id', ''))):
        dt = p.first(C('datePermalink')).first(lambda n: 'DateTime' in n.cls)  # not 'Last edited'
        t = unix(dt.a['data-time']) if 'data-time' in dt.a else shown(dt.a.get('title') or dt.text(), '%b %d, %Y at %I:%M %p')
        body = p.first(lambda n: 'messageText' in n.cls and 'signature' not in n.cls)
        out.append((p.a['data-author'], t, own(body, lambda n: 'bbCodeQuote' in n.cls)))
    return out

def xf2(r):
    out = []
    for p in r.all(lambda n: 'js-post' in n.cls and n.tag == 'article'):
        t = p.first(lambda n: n.tag == 'time' and 'data-time' in n.a)
        body = p.first(lambda n: n.tag == 'article' and 'message-body' in n.cls).first(C('bbWrapper'))
        out.append((p.a['data-author'], unix(t.a['data-time']),
                    own(body, lambda n: 'bbCodeBlock--quote' in n.cls)))
    return out

def nodebb(r):
    out = []
    for p in r.all(lambda n: n.a.get('component') == 'post'):
        name = p.first(lambda n: n.a.get('itemprop') == 'author')
        t = p.first(lambda n: 'timeago' in n.cls)  # the post's: the first, in its header
        body = p.first(lambda n: n.a.get('component') == 'post/content')
        # a quote: the blockquote and its header paragraph before it ("@MJ said in ...:")
        heads = set()
        for k, n in enumerate(body.kids):
            if isinstance(n, N) and n.tag == 'blockquote':
                prev = [m for m in body.kids[:k] if isinstance(m, N)]
                if prev and prev[-1].tag == 'p' and prev[-1].text().endswith(':'):
                    heads.add(id(prev[-1]))
        out.append((name.text(), iso(t.a['title']), own(body, lambda n: n.tag == 'blockquote' or id(n) in heads)))
    return out

def discourse(r):
    out = []
    for p in r.all(C('crawler-post')):
        name = p.first(lambda n: n.a.get('itemprop') == 'name')
        # published, not the <time itemprop=dateModified> an edited post shows
        pub = p.first(lambda n: n.a.get('itemprop') == 'datePublished')
        t = pub.a.get('content') or pub.a['datetime']
        body = p.first(lambda n: n.a.get('itemprop') == 'articleBody')
        out.append((name.text(), iso(t), own(body, lambda n: n.tag == 'aside' and 'quote' in n.cls)))
    return out

MON = {'Янв': 1, 'Фев': 2, 'Мар': 3, 'Апр': 4, 'Май': 5, 'Июн': 6, 'Июл': 7, 'Авг': 8, 'Сен': 9, 'Окт': 10, 'Ноя': 11, 'Дек': 12}
def rutracker(r):
    out = []
    for p in r.all(lambda n: n.tag == 'tbody' and re.match(r'post_\d+$', n.a.get('id', ''))):
        name = p.first(C('nick')) or p.first(C('show-for-print', 'bold'))
        t = p.first(C('p-link')).text()
        m = re.match(r'(\d+)-(\S+)-(\d+) (\d+):(\d+)', t)
        when = datetime(2000 + int(m[3]), MON[m[2]], int(m[1]), int(m[4]), int(m[5]), tzinfo=ZoneInfo('Europe/Moscow')).astimezone(timezone.utc)
        body = p.first(C('post_body'))
        out.append((name.text().rstrip(' ·'), when, own(body, lambda n: 'q-wrap' in n.cls or 'signature' in n.cls)))
    return out

PAGES = [  # file, encoding, engine, reader
    ('nettally/phpBB.html', 'utf-8', 'phpBB 3', phpbb3),
    ('nettally/vBulletin3.html', 'cp1252', 'vBulletin 3', vb3),
    ('nettally/vBulletin4.html', 'utf-8', 'vBulletin 4', vb4),
    ('trafilatura/pocketpc.ch.auslieferung.html', 'cp1252', 'vBulletin 4', lambda r: vb4(r, 'Europe/Zurich', '%d.%m.%Y, %H:%M')),
    ('nettally/vBulletin5.html', 'utf-8', 'vBulletin 5', vb5),
    ('nettally/Xenforo1.html', 'utf-8', 'XenForo 1', xf1),
    ('nettally/Xenforo2.html', 'utf-8', 'XenForo 2', xf2),
    ('htmldate/1552005464.html', 'utf-8', 'XenForo 2', xf2),
    ('trafilatura/katzen-forum.net-Pepe.html', 'utf-8', 'XenForo 2', xf2),
    ('trafilatura/villagersandheroes.com.forums.patchnotes.html', 'utf-8', 'XenForo 2', xf2),
    ('nettally/NodeBB.html', 'utf-8', 'NodeBB', nodebb),
    ('onebox/discourse_topic.response', 'utf-8', 'Discourse', discourse),
    ('onebox/discourse_topic_reply.response', 'utf-8', 'Discourse', discourse),
    ('sharptracker/rt_t1.html', 'cp1251', 'RuTracker', rutracker),
    ('sharptracker/rt_t2.html', 'cp1251', 'RuTracker', rutracker),
    ('sharptracker/rt_t3.html', 'cp1251', 'RuTracker', rutracker),
]

def main():
    lines = ['# Every post of the real thread pages of ../shared/data/forums, written by label_posts.py',
             '# from each engine\'s markup (independent of lib/forum) and checked by reading the pages.',
             '# file<TAB>engine<TAB>post index<TAB>author<TAB>time UTC<TAB>own text (quotes and signatures',
             '# left out; blanks collapsed; compared with blanks removed)']
    for f, enc, eng, fn in PAGES:
        posts = fn(parse(f, enc))
        if not posts: sys.exit('%s: no posts' % f)
        for i, (a, t, x) in enumerate(posts):
            lines.append('\t'.join([f, eng, str(i), a.replace('\t', ' '), t.strftime('%Y-%m-%dT%H:%M:%SZ'), x.replace('\t', ' ')]))
        print('%s: %d posts' % (f, len(posts)), file=sys.stderr)
    open(os.path.join(HERE, 'posts.tsv'), 'w').write('\n'.join(lines) + '\n')

main()
