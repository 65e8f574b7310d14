/* reads label\tsize\ttext lines; prints label\tsize\tguess */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <libexttextcat/textcat.h>
int main(void){
	void *h = special_textcat_Init("/usr/share/libexttextcat/fpdb.conf", "/usr/share/libexttextcat/");
	if(!h){fprintf(stderr,"init\n");return 1;}
	char *line=NULL; size_t cap=0; ssize_t n; double cpu=0; size_t bytes=0;
	while((n=getline(&line,&cap,stdin))>0){
		line[n-1]=0; char *a=strchr(line,'\t'); *a++=0; char *b=strchr(a,'\t'); *b++=0;
		clock_t t=clock(); char *r=textcat_Classify(h,b,strlen(b)); cpu+=clock()-t; bytes+=strlen(b);
		char g[64]="UNKNOWN"; if(r[0]=='['){ size_t k=strcspn(r+1,"-]"); snprintf(g,sizeof g,"%.*s",(int)k,r+1);} else snprintf(g,sizeof g,"%s",r);
		printf("%s\t%s\t%s\n",line,a,g);
	}
	fprintf(stderr,"textcat: %.3f s CPU, %.2f MB/s\n",cpu/CLOCKS_PER_SEC, bytes/1e6/(cpu/CLOCKS_PER_SEC));
	return 0;
}
