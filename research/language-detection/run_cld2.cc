#include <cstdio>
#include <cstring>
#include <ctime>
#include <cld2/public/compact_lang_det.h>
namespace CLD2 { const char* LanguageCode(Language lang); }
int main(){
	char *line=NULL; size_t cap=0; ssize_t n; double cpu=0; size_t bytes=0;
	while((n=getline(&line,&cap,stdin))>0){
		line[n-1]=0; char *a=strchr(line,'\t'); *a++=0; char *b=strchr(a,'\t'); *b++=0;
		bool rel; clock_t t=clock();
		CLD2::Language l=CLD2::DetectLanguage(b,strlen(b),true,&rel); cpu+=clock()-t; bytes+=strlen(b);
		printf("%s\t%s\t%s\n",line,a,rel?CLD2::LanguageCode(l):"UNKNOWN");
	}
	fprintf(stderr,"cld2: %.3f s CPU, %.2f MB/s\n",cpu/CLOCKS_PER_SEC, bytes/1e6/(cpu/CLOCKS_PER_SEC));
}
