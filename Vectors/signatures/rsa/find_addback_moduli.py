#!/usr/bin/env python3
"""Finds 1024-bit moduli for which Algorithm D (as RSAModulus.computeRSquared
implements it, simulated here step by step) needs its add-back step, and prints
them with R^2 mod n for RSAArithmeticTests.addBackCases.

Usage: python3 Vectors/signatures/rsa/find_addback_moduli.py
"""
import random
B=1<<64
def rsq(nl):
    k=len(nl); top=nl[-1]; shift=64-top.bit_length()
    n=sum(x<<(64*i) for i,x in enumerate(nl))
    v=n<<shift; vl=[(v>>(64*i))&(B-1) for i in range(k)]
    u=[0]*(2*k+2); u[2*k]=1<<shift
    stats={'eq':0,'refine':0,'addback':0}
    for j in range(k+1,-1,-1):
        if u[j+k]>=vl[k-1]:
            stats['eq']+=1
            q=B-1; r=u[j+k-1]+vl[k-1]; ov=r>=B; r%=B
        else:
            num=u[j+k]*B+u[j+k-1]; q=num//vl[k-1]; r=num%vl[k-1]; ov=False
        while not ov:
            if q*vl[k-2] > r*B+u[j+k-2]:
                q-=1; stats['refine']+=1; r+=vl[k-1]; ov=r>=B; r%=B
            else: break
        seg=sum(u[j+i]<<(64*i) for i in range(k+1))
        seg-=q*v
        if seg<0: stats['addback']+=1; seg+=v
        for i in range(k+1): u[j+i]=(seg>>(64*i))&(B-1)
    rem=sum(u[i]<<(64*i) for i in range(k))>>shift
    assert rem==pow(2,128*k,n), "wrong"
    return stats
random.seed(1)
found=[]
pats=[0,B-1,1<<63,(1<<63)-1,1,B-2]
for trial in range(200000):
    k=16
    nl=[random.choice(pats+[random.getrandbits(64)]) for _ in range(k)]
    nl[0]|=1
    if nl[-1]==0: nl[-1]=1<<63
    st=rsq(nl)
    if st['addback']:
        found.append(nl)
        if len(found)>=3: break
print("done", trial)

print("---")
for nl in found:
    n=sum(x<<(64*i) for i,x in enumerate(nl))
    k=len(nl)
    print('("%s",\n "%s"),' % (format(n,'x'), format(pow(2,128*k,n),'x')))
