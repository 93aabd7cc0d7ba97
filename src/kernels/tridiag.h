/*
   Single-source bodies of the batched tridiagonal solvers (src/tridiag).

   Plain C over arrays (no PETSc objects), compiled by the host back end
   (src/backend/host/tridiag_host.c) and readable by nvcc/hipcc. A call works on a
   block of lanes (independent systems): groups g in [g0, g1) of lanes l in [l0, l1);
   the lane loop is innermost so that the sequential sweep along the rows runs over
   all lanes at once (vector lanes on a CPU, one thread per lane on a GPU, which calls
   with l1 = l0 + 1). Arrays are addressed through views

       element (g, i, l) of x  =  x.v[g*x.gs + i*x.rs + l*x.ls]

   so the same body reads the SZ-packed layout (gs = m*SZ, rs = SZ, ls = 1; per-line
   coefficients and factors are always stored so), the natural layout of a DMDA's z lines
   (groups of consecutive lines: gs = SZ, rs = nsys, ls = 1), coefficients shared by all
   lines (gs = 0, rs = 1, ls = 0) and per-lane scalars (rs = 0). For each row and group
   the body takes restrict row pointers, so the lane loop is a plain unit-stride loop once
   the host instance has made ls a constant.

   System of one lane, rows i = 0..n-1:  A_i x_{i-1} + B_i x_i + C_i x_{i+1} = d_i. The
   diagonal is carried by its row excess r_i = B_i + A_i + C_i = e_i + shift * w_i (e: the
   excess of the coefficients, summed exactly at set-up), and the elimination tracks the
   excess of each pivot over its upper coupling (sig_i = p_i + C_i):

     sig_first = r_first - A_first,  sig_i = r_i - A_i (sig_{i-1} ip_{i-1}),
     p_i = sig_i - C_i,  ip_i = 1 / p_i,  l_i = A_i ip_{i-1}.

   For M-matrices (A, C <= 0, r >= 0: the discrete Laplacian plus a shift) every term has
   one sign, so a pivot is exact to a few ulps however weak the dominance (shift 1e-6 or
   0), where p_i = B_i - l_i C_{i-1} would lose the shift to cancellation; for other lines
   it is the same elimination. "pre" kernels take factors computed at set-up (with the same
   expressions, src/tridiag/tdsetup.c); "fly" kernels recompute them in scratch arrays
   (Diez, Peeters and Costa (2025), Algorithm 1 vs 2). A lane with mask 0 (a pinned singular
   line) gets its last unknown set to zero.

   Notation of the bodies: PPE_TD_GROUPS(g, R) and PPE_TD_LANES(l, R) are the loops over the
   groups and the lanes of the block R; ppe_td_row(x, g, i) (ppe_td_crow for a read-only
   view) is row i of group g of view x, held in a restrict pointer p, and p[l * x.ls] is
   lane l of it.

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025.
*/
#ifndef PPE_KERNELS_TRIDIAG_H
#define PPE_KERNELS_TRIDIAG_H

#include <stddef.h>
#include "hd.h" /* PPE_HD_INLINE: inlined into each host instance, where the views' strides become constants */

#if defined(__CUDACC__) || defined(__HIPCC__)
  #define PPE_TD_RESTRICT __restrict__
#else
  #define PPE_TD_RESTRICT restrict
#endif

/* The lane loop: independent iterations (views never make two lanes share an element). */
#if defined(__CUDACC__) || defined(__HIPCC__)
  #define PPE_TD_SIMD
#elif defined(__clang__)
  #define PPE_TD_SIMD _Pragma("clang loop vectorize(enable) interleave(enable)")
#elif defined(__GNUC__)
  #define PPE_TD_SIMD _Pragma("GCC ivdep")
#else
  #define PPE_TD_SIMD
#endif

/* The lane loop stays a loop until it is vectorised: completely unrolled first (8 lanes),
   GCC vectorises the group loop instead (pairs of elements gathered from two groups). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__HIPCC__)
  #define PPE_TD_NOUNROLL _Pragma("GCC unroll 1")
#else
  #define PPE_TD_NOUNROLL
#endif

/* Prefetch of the data PPE_TD_PF rows ahead in the forward sweeps (host only): in the natural
   layout consecutive rows of a line are far apart, which the hardware prefetchers miss. */
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
  #define PPE_TD_PREFETCH(p) __builtin_prefetch((const void *)(p), 1, 3)
#else
  #define PPE_TD_PREFETCH(p) ((void)(p))
#endif
#ifndef PPE_TD_PF
  #define PPE_TD_PF 8
#endif

/* Groups of SZ lines the host solves in one call of a kernel: 8 independent AVX2 chains hide
   the latency of the sweeps, and a block of 1024 rows (256 KiB) stays in L2 between the
   forward and the backward sweep. In the natural layout the groups are consecutive lines. */
#ifndef PPE_TD_G
  #define PPE_TD_G 4
#endif

/* The block of lanes a call works on. */
typedef struct {
  int g0, g1, l0, l1;
} ppe_td_lanes;

/* Views of arrays: writable (data, scratch, outputs) and read-only (coefficients). */
typedef struct {
  double *v;
  long    gs, rs, ls;
} ppe_td_arr;
typedef struct {
  const double *v;
  long          gs, rs, ls;
} ppe_td_carr;

/* The coefficients of the fly kernels: r_i = e_i + shift * w_i. */
typedef struct {
  ppe_td_carr a, e, c, w; /* lower, excess of the diagonal, upper, weight of the shift */
  ppe_td_carr shift;      /* per lane (rs = 0) */
  ppe_td_carr mask;       /* per lane: 1, or 0 for a pinned line */
} ppe_td_coefs;

/* The loops of a body over the block R: the groups g, and the lanes l of a group (the inner
   loop: vectorised on the host, one lane per thread on a GPU). */
#define PPE_TD_GROUPS(g, R) for (int g = (R).g0; g < (R).g1; g++)
#define PPE_TD_LANES(l, R)  PPE_TD_SIMD PPE_TD_NOUNROLL for (int l = (R).l0; l < (R).l1; l++)

/* Row i of group g of a writable view; lane l of the row is row[l * x.ls]. */
PPE_HD_INLINE double *ppe_td_row(ppe_td_arr x, int g, long i)
{
  return x.v + (long)g * x.gs + i * x.rs;
}

/* Row i of group g of a read-only view. */
PPE_HD_INLINE const double *ppe_td_crow(ppe_td_carr x, int g, long i)
{
  return x.v + (long)g * x.gs + i * x.rs;
}

/* Prefetch the lanes of R of the row `rows` rows past row p of view x (host only). */
PPE_HD_INLINE void ppe_td_prefetch_row(const double *p, ppe_td_arr x, ppe_td_lanes R, long rows)
{
  PPE_TD_PREFETCH(p + rows * x.rs + (long)R.l0 * x.ls);
  PPE_TD_PREFETCH(p + rows * x.rs + (long)(R.l1 - 1) * x.ls);
}

/* The row excess r_i = e_i + shift * w_i of the fly kernels, lane l of group g. */
PPE_HD_INLINE double ppe_td_excess(ppe_td_coefs K, int g, long i, int l)
{
  return ppe_td_crow(K.e, g, i)[l * K.e.ls] + ppe_td_crow(K.shift, g, 0)[l * K.shift.ls] * ppe_td_crow(K.w, g, i)[l * K.w.ls];
}

/* A read-only view of a scratch array. */
PPE_HD_INLINE ppe_td_carr ppe_td_const(ppe_td_arr x)
{
  ppe_td_carr c;

  c.v  = x.v;
  c.gs = x.gs;
  c.rs = x.rs;
  c.ls = x.ls;
  return c;
}

/* Forward sweep y_i = d_i - (A_i ip_{i-1}) y_{i-1}, rows i0..i1-1 (pre-computed factors). */
PPE_HD_INLINE void ppe_td_forward(ppe_td_lanes R, long i0, long i1, ppe_td_carr A, ppe_td_carr ip, ppe_td_arr d)
{
  for (long i = i0; i < i1; i++) PPE_TD_GROUPS(g, R)
    {
      double *PPE_TD_RESTRICT       y  = ppe_td_row(d, g, i);
      const double *PPE_TD_RESTRICT y1 = ppe_td_row(d, g, i - 1);
      const double *PPE_TD_RESTRICT a  = ppe_td_crow(A, g, i);
      const double *PPE_TD_RESTRICT p  = ppe_td_crow(ip, g, i - 1);

      if (i + PPE_TD_PF < i1) ppe_td_prefetch_row(y, d, R, PPE_TD_PF);
      PPE_TD_LANES(l, R) y[l * d.ls] = y[l * d.ls] - (a[l * A.ls] * p[l * ip.ls]) * y1[l * d.ls];
    }
}

/* Backward sweep x_i = (y_i - C_i x_{i+1}) ip_i, rows i = i1-1 down to i0. */
PPE_HD_INLINE void ppe_td_backward(ppe_td_lanes R, long i0, long i1, ppe_td_carr C, ppe_td_carr ip, ppe_td_arr d)
{
  for (long i = i1 - 1; i >= i0; i--) PPE_TD_GROUPS(g, R)
    {
      double *PPE_TD_RESTRICT       y  = ppe_td_row(d, g, i);
      const double *PPE_TD_RESTRICT y1 = ppe_td_row(d, g, i + 1);
      const double *PPE_TD_RESTRICT c  = ppe_td_crow(C, g, i);
      const double *PPE_TD_RESTRICT p  = ppe_td_crow(ip, g, i);

      PPE_TD_LANES(l, R) y[l * d.ls] = (y[l * d.ls] - c[l * C.ls] * y1[l * d.ls]) * p[l * ip.ls];
    }
}

/* Row i of d times a per-lane (rs = 0) or per-row factor s. */
PPE_HD_INLINE void ppe_td_scale(ppe_td_lanes R, long i, ppe_td_carr s, long is, ppe_td_arr d)
{
  PPE_TD_GROUPS(g, R)
  {
    double *PPE_TD_RESTRICT       y = ppe_td_row(d, g, i);
    const double *PPE_TD_RESTRICT f = ppe_td_crow(s, g, is);

    PPE_TD_LANES(l, R) y[l * d.ls] = y[l * d.ls] * f[l * s.ls];
  }
}

/*
   Thomas, rows 0..n-1 (n >= 2), pre-computed: ip_0..ip_{n-2} and last = 1/p_{n-1}
   (0 for a pinned lane). Forward y_i = d_i - l_i y_{i-1}; backward x_i = (y_i - C_i x_{i+1}) ip_i.
*/
PPE_HD_INLINE void ppe_td_thomas(ppe_td_lanes R, long n, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_carr last, ppe_td_arr d)
{
  ppe_td_forward(R, 1, n, A, ip, d);
  ppe_td_scale(R, n - 1, last, 0, d);
  ppe_td_backward(R, 0, n - 1, C, ip, d);
}

/*
   The factors computed on the fly, rows i0..i1-1 (i0 >= 1), with ip in s and sig in sig,
   both already set for row i0-1:

     l_i = A_i ip_{i-1},  sig_i = r_i - A_i (sig_{i-1} ip_{i-1}),  ip_i = 1 / (sig_i - C_i),

   and, in the same pass, the sweeps that use l_i, each where its view is given (not NULL):

     h   h_i = r_i - l_i h_{i-1}    (the column h of periodic Thomas)
     d   y_i = d_i - l_i y_{i-1}    (the forward sweep of the data, prefetched ahead)
     al  al_i = -(l_i al_{i-1})     (the forward part of al of the reconstruction)
*/
PPE_HD_INLINE void ppe_td_fly_sweep(ppe_td_lanes R, long i0, long i1, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr sig, const ppe_td_arr *h, const ppe_td_arr *d, const ppe_td_arr *al)
{
  for (long i = i0; i < i1; i++) PPE_TD_GROUPS(g, R)
    {
      const double *PPE_TD_RESTRICT a   = ppe_td_crow(K.a, g, i);
      const double *PPE_TD_RESTRICT c   = ppe_td_crow(K.c, g, i);
      double *PPE_TD_RESTRICT       si  = ppe_td_row(s, g, i);
      const double *PPE_TD_RESTRICT s1  = ppe_td_row(s, g, i - 1);
      double *PPE_TD_RESTRICT       ti  = ppe_td_row(sig, g, i);
      const double *PPE_TD_RESTRICT t1  = ppe_td_row(sig, g, i - 1);
      double *PPE_TD_RESTRICT       hi  = h ? ppe_td_row(*h, g, i) : NULL;
      const double *PPE_TD_RESTRICT h1  = h ? ppe_td_row(*h, g, i - 1) : NULL;
      double *PPE_TD_RESTRICT       y   = d ? ppe_td_row(*d, g, i) : NULL;
      const double *PPE_TD_RESTRICT y1  = d ? ppe_td_row(*d, g, i - 1) : NULL;
      double *PPE_TD_RESTRICT       ali = al ? ppe_td_row(*al, g, i) : NULL;
      const double *PPE_TD_RESTRICT al1 = al ? ppe_td_row(*al, g, i - 1) : NULL;

      if (d && i + PPE_TD_PF < i1) ppe_td_prefetch_row(y, *d, R, PPE_TD_PF);
      PPE_TD_LANES(l, R)
      {
        double r  = ppe_td_excess(K, g, i, l);
        double li = a[l * K.a.ls] * s1[l * s.ls];

        ti[l * sig.ls] = r - a[l * K.a.ls] * (t1[l * sig.ls] * s1[l * s.ls]);
        si[l * s.ls]   = 1.0 / (ti[l * sig.ls] - c[l * K.c.ls]);
        if (h) hi[l * h->ls] = r - li * h1[l * h->ls];
        if (d) y[l * d->ls] = y[l * d->ls] - li * y1[l * d->ls];
        if (al) ali[l * al->ls] = -(li * al1[l * al->ls]);
      }
    }
}

/* Start of a chain at row i: sig = r_i - A_i (with A = 0 for a line's first row), ip = 1/(sig - C_i). */
PPE_HD_INLINE void ppe_td_chain_start(ppe_td_lanes R, long i, int with_a, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t)
{
  PPE_TD_GROUPS(g, R)
  {
    const double *PPE_TD_RESTRICT a  = ppe_td_crow(K.a, g, i);
    const double *PPE_TD_RESTRICT c  = ppe_td_crow(K.c, g, i);
    double *PPE_TD_RESTRICT       si = ppe_td_row(s, g, i);
    double *PPE_TD_RESTRICT       ti = ppe_td_row(t, g, i);

    PPE_TD_LANES(l, R)
    {
      ti[l * t.ls] = ppe_td_excess(K, g, i, l) - (with_a ? a[l * K.a.ls] : 0.0);
      si[l * s.ls] = 1.0 / (ti[l * t.ls] - c[l * K.c.ls]);
    }
  }
}

/* Thomas with the factors computed on the fly: ip in s, sig in t (n rows each). */
PPE_HD_INLINE void ppe_td_thomas_fly(ppe_td_lanes R, long n, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr d)
{
  ppe_td_chain_start(R, 0, 0, K, s, t);
  ppe_td_fly_sweep(R, 1, n - 1, K, s, t, NULL, &d, NULL);
  PPE_TD_GROUPS(g, R)
  {
    const double *PPE_TD_RESTRICT a  = ppe_td_crow(K.a, g, n - 1);
    const double *PPE_TD_RESTRICT mk = ppe_td_crow(K.mask, g, 0);
    const double *PPE_TD_RESTRICT s1 = ppe_td_row(s, g, n - 2);
    const double *PPE_TD_RESTRICT t1 = ppe_td_row(t, g, n - 2);
    double *PPE_TD_RESTRICT       y  = ppe_td_row(d, g, n - 1);
    const double *PPE_TD_RESTRICT y1 = ppe_td_row(d, g, n - 2);

    PPE_TD_LANES(l, R)
    {
      double li = a[l * K.a.ls] * s1[l * s.ls];
      double p  = ppe_td_excess(K, g, n - 1, l) - a[l * K.a.ls] * (t1[l * t.ls] * s1[l * s.ls]);
      double m  = mk[l * K.mask.ls];

      y[l * d.ls] = (y[l * d.ls] - li * y1[l * d.ls]) * (m * (1.0 / (m != 0.0 ? p : 1.0)));
    }
  }
  ppe_td_backward(R, 0, n - 1, K.c, ppe_td_const(s), d);
}

/*
   Periodic Thomas, rows 0..n-1 cyclic (A_0 couples x_{n-1}, C_{n-1} couples x_0), n >= 2:
   Thomas on rows 0..n-2 (matrix T, without the couplings to x_{n-1}) gives y; with
   h = T^{-1} r' (r' = r_0..r_{n-2}) the column of x_{n-1} is q = T^{-1}(A_0 e_0 + C_{n-2}
   e_{n-2}) = h - 1, and
     x_{n-1} = (d_{n-1} - C_{n-1} y_0 - A_{n-1} y_{n-2}) sinv,  x_i = y_i - q_i x_{n-1},
   sinv = 1/(r_{n-1} - C_{n-1} h_0 - A_{n-1} h_{n-2}) (0 for a pinned lane): the Schur
   complement in its excess form, without cancellation.
*/
PPE_HD_INLINE void ppe_td_pthomas(ppe_td_lanes R, long n, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_carr q, ppe_td_carr sinv, ppe_td_arr d)
{
  ppe_td_forward(R, 1, n - 1, A, ip, d);
  ppe_td_scale(R, n - 2, ip, n - 2, d);
  ppe_td_backward(R, 0, n - 2, C, ip, d);
  PPE_TD_GROUPS(g, R)
  {
    double *PPE_TD_RESTRICT       x  = ppe_td_row(d, g, n - 1);
    const double *PPE_TD_RESTRICT y0 = ppe_td_row(d, g, 0);
    const double *PPE_TD_RESTRICT y2 = ppe_td_row(d, g, n - 2);
    const double *PPE_TD_RESTRICT a  = ppe_td_crow(A, g, n - 1);
    const double *PPE_TD_RESTRICT c  = ppe_td_crow(C, g, n - 1);
    const double *PPE_TD_RESTRICT si = ppe_td_crow(sinv, g, 0);

    PPE_TD_LANES(l, R) x[l * d.ls] = (x[l * d.ls] - c[l * C.ls] * y0[l * d.ls] - a[l * A.ls] * y2[l * d.ls]) * si[l * sinv.ls];
  }
  for (long i = 0; i < n - 1; i++) PPE_TD_GROUPS(g, R)
    {
      double *PPE_TD_RESTRICT       y  = ppe_td_row(d, g, i);
      const double *PPE_TD_RESTRICT x  = ppe_td_row(d, g, n - 1);
      const double *PPE_TD_RESTRICT qi = ppe_td_crow(q, g, i);

      PPE_TD_LANES(l, R) y[l * d.ls] = y[l * d.ls] - qi[l * q.ls] * x[l * d.ls];
    }
}

/* Periodic Thomas on the fly: factors in s, h in t, sig in u (n rows each). */
PPE_HD_INLINE void ppe_td_pthomas_fly(ppe_td_lanes R, long n, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_arr d)
{
  ppe_td_chain_start(R, 0, 1, K, s, u);
  PPE_TD_GROUPS(g, R)
  {
    double *PPE_TD_RESTRICT h = ppe_td_row(t, g, 0);

    PPE_TD_LANES(l, R) h[l * t.ls] = ppe_td_excess(K, g, 0, l);
  }
  ppe_td_fly_sweep(R, 1, n - 1, K, s, u, &t, &d, NULL);
  ppe_td_scale(R, n - 2, ppe_td_const(s), n - 2, d);
  ppe_td_scale(R, n - 2, ppe_td_const(s), n - 2, t);
  ppe_td_backward(R, 0, n - 2, K.c, ppe_td_const(s), d);
  ppe_td_backward(R, 0, n - 2, K.c, ppe_td_const(s), t);
  PPE_TD_GROUPS(g, R)
  {
    const double *PPE_TD_RESTRICT a  = ppe_td_crow(K.a, g, n - 1);
    const double *PPE_TD_RESTRICT c  = ppe_td_crow(K.c, g, n - 1);
    const double *PPE_TD_RESTRICT mk = ppe_td_crow(K.mask, g, 0);
    const double *PPE_TD_RESTRICT h0 = ppe_td_row(t, g, 0);
    const double *PPE_TD_RESTRICT h2 = ppe_td_row(t, g, n - 2);
    double *PPE_TD_RESTRICT       x  = ppe_td_row(d, g, n - 1);
    const double *PPE_TD_RESTRICT y0 = ppe_td_row(d, g, 0);
    const double *PPE_TD_RESTRICT y2 = ppe_td_row(d, g, n - 2);

    PPE_TD_LANES(l, R)
    {
      double den = ppe_td_excess(K, g, n - 1, l) - c[l * K.c.ls] * h0[l * t.ls] - a[l * K.a.ls] * h2[l * t.ls];
      double m   = mk[l * K.mask.ls];

      x[l * d.ls] = (x[l * d.ls] - c[l * K.c.ls] * y0[l * d.ls] - a[l * K.a.ls] * y2[l * d.ls]) * (m * (1.0 / (m != 0.0 ? den : 1.0)));
    }
  }
  for (long i = 0; i < n - 1; i++) PPE_TD_GROUPS(g, R)
    {
      double *PPE_TD_RESTRICT       y = ppe_td_row(d, g, i);
      const double *PPE_TD_RESTRICT x = ppe_td_row(d, g, n - 1);
      const double *PPE_TD_RESTRICT h = ppe_td_row(t, g, i);

      PPE_TD_LANES(l, R) y[l * d.ls] = y[l * d.ls] - (h[l * t.ls] - 1.0) * x[l * d.ls];
    }
}

/* The boundary right-hand sides of the reduction, from g = T^{-1} d in place (m >= 2). */
PPE_HD_INLINE void ppe_td_reduce_ends(ppe_td_lanes R, long m, ppe_td_carr A, ppe_td_carr C, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  PPE_TD_GROUPS(g, R)
  {
    const double *PPE_TD_RESTRICT y0 = ppe_td_row(d, g, 0);
    const double *PPE_TD_RESTRICT y1 = ppe_td_row(d, g, 1);
    const double *PPE_TD_RESTRICT y2 = ppe_td_row(d, g, m - 2);
    const double *PPE_TD_RESTRICT y3 = ppe_td_row(d, g, m - 1);
    const double *PPE_TD_RESTRICT c  = ppe_td_crow(C, g, 0);
    const double *PPE_TD_RESTRICT a  = ppe_td_crow(A, g, m - 1);
    double *PPE_TD_RESTRICT       o0 = ppe_td_row(r0, g, 0);
    double *PPE_TD_RESTRICT       o1 = ppe_td_row(r1, g, 0);

    PPE_TD_LANES(l, R)
    {
      if (m >= 3) {
        o0[l * r0.ls] = y0[l * d.ls] - c[l * C.ls] * y1[l * d.ls];
        o1[l * r1.ls] = y3[l * d.ls] - a[l * A.ls] * y2[l * d.ls];
      } else {
        o0[l * r0.ls] = y0[l * d.ls];
        o1[l * r1.ls] = y3[l * d.ls];
      }
    }
  }
}

/*
   Local reduction of P-TDMA and DistD2 (m >= 2 rows of this rank). The interior rows
   1..m-2 are eliminated (Thomas on them, factors ip_1..ip_{m-2}), leaving g = T^{-1} d in
   place, and the two boundary rows become rows of the reduced system in x_0 and x_{m-1}
   with right-hand sides
     r0 = d_0 - C_0 g_1,   r1 = d_{m-1} - A_{m-1} g_{m-2}   (m = 2: r0 = d_0, r1 = d_1).
*/
PPE_HD_INLINE void ppe_td_reduce(ppe_td_lanes R, long m, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  if (m >= 3) {
    ppe_td_forward(R, 2, m - 1, A, ip, d);
    ppe_td_scale(R, m - 2, ip, m - 2, d);
    ppe_td_backward(R, 1, m - 2, C, ip, d);
  }
  ppe_td_reduce_ends(R, m, A, C, d, r0, r1);
}

/* The local reduction with the interior factors computed on the fly: ip in s, sig in u. */
PPE_HD_INLINE void ppe_td_reduce_fly(ppe_td_lanes R, long m, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr u, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  if (m >= 3) {
    ppe_td_chain_start(R, 1, 1, K, s, u);
    ppe_td_fly_sweep(R, 2, m - 1, K, s, u, NULL, &d, NULL);
    ppe_td_scale(R, m - 2, ppe_td_const(s), m - 2, d);
    ppe_td_backward(R, 1, m - 2, K.c, ppe_td_const(s), d);
  }
  ppe_td_reduce_ends(R, m, K.a, K.c, d, r0, r1);
}

/* The boundary rows take the boundary unknowns. */
PPE_HD_INLINE void ppe_td_recon_ends(ppe_td_lanes R, long m, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  PPE_TD_GROUPS(g, R)
  {
    double *PPE_TD_RESTRICT       y0 = ppe_td_row(d, g, 0);
    double *PPE_TD_RESTRICT       y3 = ppe_td_row(d, g, m - 1);
    const double *PPE_TD_RESTRICT b0 = ppe_td_crow(x0, g, 0);
    const double *PPE_TD_RESTRICT b1 = ppe_td_crow(x1, g, 0);

    PPE_TD_LANES(l, R)
    {
      y0[l * d.ls] = b0[l * x0.ls];
      y3[l * d.ls] = b1[l * x1.ls];
    }
  }
}

/*
   Reconstruction: with the boundary unknowns x0 = x_0 and x1 = x_{m-1} known,
     x_i = g_i - al_i x0 - be_i x1,   i = 1..m-2,
   where al = T^{-1} (A_1 e_1) and be = T^{-1} (C_{m-2} e_{m-2}) (pre-computed).
*/
PPE_HD_INLINE void ppe_td_recon(ppe_td_lanes R, long m, ppe_td_carr al, ppe_td_carr be, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  for (long i = 1; i < m - 1; i++) PPE_TD_GROUPS(g, R)
    {
      double *PPE_TD_RESTRICT       y  = ppe_td_row(d, g, i);
      const double *PPE_TD_RESTRICT p  = ppe_td_crow(al, g, i);
      const double *PPE_TD_RESTRICT q  = ppe_td_crow(be, g, i);
      const double *PPE_TD_RESTRICT b0 = ppe_td_crow(x0, g, 0);
      const double *PPE_TD_RESTRICT b1 = ppe_td_crow(x1, g, 0);

      if (i + PPE_TD_PF < m - 1) ppe_td_prefetch_row(y, d, R, PPE_TD_PF);
      PPE_TD_LANES(l, R) y[l * d.ls] = y[l * d.ls] - p[l * al.ls] * b0[l * x0.ls] - q[l * be.ls] * b1[l * x1.ls];
    }
  ppe_td_recon_ends(R, m, x0, x1, d);
}

/*
   Reconstruction on the fly: a forward sweep over the coefficients recomputes the factors
   (s, with sig in u) and the forward part of al (t: t_1 = A_1, t_i = -(l_i t_{i-1})); the
   backward sweep finishes al and be (be in u) and updates d.
*/
PPE_HD_INLINE void ppe_td_recon_fly(ppe_td_lanes R, long m, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  if (m >= 3) {
    ppe_td_chain_start(R, 1, 1, K, s, u);
    PPE_TD_GROUPS(g, R)
    {
      const double *PPE_TD_RESTRICT a  = ppe_td_crow(K.a, g, 1);
      double *PPE_TD_RESTRICT       al = ppe_td_row(t, g, 1);

      PPE_TD_LANES(l, R) al[l * t.ls] = a[l * K.a.ls];
    }
    ppe_td_fly_sweep(R, 2, m - 1, K, s, u, NULL, NULL, &t);
    PPE_TD_GROUPS(g, R)
    {
      const double *PPE_TD_RESTRICT c  = ppe_td_crow(K.c, g, m - 2);
      const double *PPE_TD_RESTRICT si = ppe_td_row(s, g, m - 2);
      double *PPE_TD_RESTRICT       al = ppe_td_row(t, g, m - 2);
      double *PPE_TD_RESTRICT       be = ppe_td_row(u, g, m - 2);
      double *PPE_TD_RESTRICT       y  = ppe_td_row(d, g, m - 2);
      const double *PPE_TD_RESTRICT b0 = ppe_td_crow(x0, g, 0);
      const double *PPE_TD_RESTRICT b1 = ppe_td_crow(x1, g, 0);

      PPE_TD_LANES(l, R)
      {
        al[l * t.ls] = al[l * t.ls] * si[l * s.ls];
        be[l * u.ls] = c[l * K.c.ls] * si[l * s.ls];
        y[l * d.ls]  = y[l * d.ls] - al[l * t.ls] * b0[l * x0.ls] - be[l * u.ls] * b1[l * x1.ls];
      }
    }
    for (long i = m - 3; i >= 1; i--) PPE_TD_GROUPS(g, R)
      {
        const double *PPE_TD_RESTRICT c   = ppe_td_crow(K.c, g, i);
        const double *PPE_TD_RESTRICT si  = ppe_td_row(s, g, i);
        double *PPE_TD_RESTRICT       al  = ppe_td_row(t, g, i);
        const double *PPE_TD_RESTRICT al1 = ppe_td_row(t, g, i + 1);
        double *PPE_TD_RESTRICT       be  = ppe_td_row(u, g, i);
        const double *PPE_TD_RESTRICT be1 = ppe_td_row(u, g, i + 1);
        double *PPE_TD_RESTRICT       y   = ppe_td_row(d, g, i);
        const double *PPE_TD_RESTRICT b0  = ppe_td_crow(x0, g, 0);
        const double *PPE_TD_RESTRICT b1  = ppe_td_crow(x1, g, 0);

        if (i - PPE_TD_PF >= 1) ppe_td_prefetch_row(y, d, R, -PPE_TD_PF); /* this sweep goes down the rows */
        PPE_TD_LANES(l, R)
        {
          al[l * t.ls] = (al[l * t.ls] - c[l * K.c.ls] * al1[l * t.ls]) * si[l * s.ls];
          be[l * u.ls] = (-(c[l * K.c.ls] * be1[l * u.ls])) * si[l * s.ls];
          y[l * d.ls]  = y[l * d.ls] - al[l * t.ls] * b0[l * x0.ls] - be[l * u.ls] * b1[l * x1.ls];
        }
      }
  }
  ppe_td_recon_ends(R, m, x0, x1, d);
}

/* The kernels of one call of a back end (host or device launcher). */
typedef enum {
  PPE_TD_K_THOMAS,  /* Thomas, whole line on this rank */
  PPE_TD_K_PTHOMAS, /* periodic Thomas */
  PPE_TD_K_REDUCE,  /* local reduction to the boundary rows (ptdma, distd2) */
  PPE_TD_K_RECON,   /* reconstruction from the boundary unknowns */
  PPE_TD_K_NUM
} PPETdKernel;

/* The kernels by name, in PPETdKernel order: X(name, k) for the back ends that make one
   instance of ppe_td_kernel() per kernel (and per pre-computed or fly). */
#define PPE_TD_KERNELS(X) X(thomas, PPE_TD_K_THOMAS) X(pthomas, PPE_TD_K_PTHOMAS) X(reduce, PPE_TD_K_REDUCE) X(recon, PPE_TD_K_RECON)

/* The arrays of one kernel call, as views of its first group. */
typedef struct {
  ppe_td_carr a, e, c, w, shift, mask; /* coefficients (fly kernels; e: excess of the diagonal) */
  ppe_td_carr ip, q, al, be, last;     /* factors (pre kernels); last: 1/p_{n-1} or sinv, per lane */
  ppe_td_arr  d;                       /* the data */
  ppe_td_arr  r0, r1;                  /* reduce: boundary right-hand sides, per lane */
  ppe_td_carr x0, x1;                  /* recon: boundary unknowns, per lane */
  ppe_td_arr  s, t, u;                 /* scratch of the fly kernels, block-local */
} PPETdArgs;

/* The coefficients of the fly kernels of a call. */
PPE_HD_INLINE ppe_td_coefs ppe_td_args_coefs(const PPETdArgs *x)
{
  ppe_td_coefs K = {x->a, x->e, x->c, x->w, x->shift, x->mask};

  return K;
}

/*
   Kernel k (PPETdKernel), with pre-computed factors (fly 0) or factors computed on the fly,
   on the lanes of R, rows 0..n-1, arrays as the views of x: the one dispatch of the bodies.
   Every back end runs it: the host's generic call with the views as given, its full-block
   instances with the views' strides made constants, and every device thread on its own lane
   (k and fly constant in each instance and device kernel, so the switch folds away). An
   unknown k does nothing.
*/
PPE_HD_INLINE void ppe_td_kernel(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x)
{
  ppe_td_coefs K = ppe_td_args_coefs(x);

  switch (k) {
  case PPE_TD_K_THOMAS:
    if (fly) ppe_td_thomas_fly(R, n, K, x->s, x->t, x->d);
    else ppe_td_thomas(R, n, x->a, x->c, x->ip, x->last, x->d);
    break;
  case PPE_TD_K_PTHOMAS:
    if (fly) ppe_td_pthomas_fly(R, n, K, x->s, x->t, x->u, x->d);
    else ppe_td_pthomas(R, n, x->a, x->c, x->ip, x->q, x->last, x->d);
    break;
  case PPE_TD_K_REDUCE:
    if (fly) ppe_td_reduce_fly(R, n, K, x->s, x->u, x->d, x->r0, x->r1);
    else ppe_td_reduce(R, n, x->a, x->c, x->ip, x->d, x->r0, x->r1);
    break;
  case PPE_TD_K_RECON:
    if (fly) ppe_td_recon_fly(R, n, K, x->s, x->t, x->u, x->x0, x->x1, x->d);
    else ppe_td_recon(R, n, x->al, x->be, x->x0, x->x1, x->d);
    break;
  default:
    break;
  }
}

#endif
