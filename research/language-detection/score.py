import sys, collections
alias={'nb':'no','nn':'no','iw':'he','tl':'fil','in':'id','ji':'yi','jw':'jv'}
def norm(x):
    x=alias.get(x,x); x=x.split('-')[0]; return alias.get(x,x)
def sup(f): return set(norm(l.split('\t')[2].strip()) for l in open(f) if 'UNKNOWN' not in l and 'SHORT' not in l)
both=sup(sys.argv[1])&sup(sys.argv[2])
for f in sys.argv[1:]:
    st=collections.defaultdict(lambda:[0,0,0])
    for l in open(f):
        lab,size,g=l.rstrip('\n').split('\t'); lab=norm(lab)
        if lab not in both: continue
        s=st[size]; s[0]+=1
        if g in('UNKNOWN','SHORT'): continue
        s[1]+=1; s[2]+= norm(g)==lab
    print(f, 'on the',len(both),'languages both name')
    for size in sorted(st,key=int):
        n,ans,ok=st[size]
        print(f"  {size:>5} chars: {n} cases, answered {ans/n:.1%}, right when answered {ok/max(ans,1):.1%}, right overall {ok/n:.1%}")
