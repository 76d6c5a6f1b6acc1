"""The SPRT's log-likelihood ratios of src/matchrun/stats.rs's tests, computed a second way.

The runner finds, for each hypothesis score s, the multiplier l that zeroes the slope of
g(l) = sum c ln(1 + l (x - s)) by bisection; this maximizes the concave g itself by
golden-section search. The LLR is g_max(s0) - g_max(s1). Zero counts count 1e-3.
Run: python3 scripts/llr_check.py: prints the values the tests expect.
"""
import math
def score(elo): return 1/(1+10**(-elo/400))
def gmax(outs, s):
    above=max(x-s for x,_ in outs); below=min(x-s for x,_ in outs)
    lo,hi=-1/above,-1/below
    g=lambda l: sum(c*math.log(1+l*(x-s)) for x,c in outs)
    phi=(math.sqrt(5)-1)/2
    a,b=lo,hi
    for _ in range(400):
        c1=b-phi*(b-a); c2=a+phi*(b-a)
        if g(c1)<g(c2): a=c1
        else: b=c2
    return g((a+b)/2)
def llr(counts, values, elo0, elo1):
    outs=[(v, max(c,1e-3)) for v,c in zip(values,counts)]
    return gmax(outs,score(elo0))-gmax(outs,score(elo1))
tri=[1,0.5,0]; pen=[0,0.25,0.5,0.75,1]
print(repr(llr([30,40,20],tri,0,10)))
print(repr(llr([3,15,20,10,2][::-1],pen,0,10)))  # counts index 0..4 -> values 0..1
print(repr(llr([0,0,11,0,0],pen,0,15)))
print(repr(llr([50,0,0],tri,0,10)))
