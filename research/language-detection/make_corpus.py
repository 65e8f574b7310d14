import os, gettext, random, re, sys
random.seed(7)
root='/usr/share/locale'
out=open('corpus.tsv','w')
langs=0
for d in sorted(os.listdir(root)):
    if not re.fullmatch(r'[a-z]{2,3}(_[A-Z]{2})?', d): continue
    if d.startswith('en'): pass
    lm=os.path.join(root,d,'LC_MESSAGES')
    if not os.path.isdir(lm): continue
    strs=[]
    for f in sorted(os.listdir(lm)):
        if not f.endswith('.mo'): continue
        try:
            t=gettext.GNUTranslations(open(os.path.join(lm,f),'rb'))
        except Exception: continue
        for k,v in t._catalog.items():
            if isinstance(v,str) and k and v!=k and len(v)>20 and '%' not in v and '\\' not in v:
                strs.append(' '.join(v.split()))
    if len(strs)<200: continue
    langs+=1
    random.shuffle(strs)
    for size in (60,200,1000):
        for n in range(40):
            s=''
            while len(s)<size and strs: s+=(' ' if s else '')+strs.pop()
            if len(s)>=size*0.8: out.write(f"{d.split('_')[0]}\t{size}\t{s[:size*2]}\n")
print(langs, file=sys.stderr)
