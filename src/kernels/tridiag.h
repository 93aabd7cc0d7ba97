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
   (paper 000, Algorithm 1 vs 2). A lane with mask 0 (a pinned singular line) gets its last
   unknown set to zero.
*/
#ifndef PPE_KERNELS_TRIDIAG_H
#define PPE_KERNELS_TRIDIAG_H

#if defined(__CUDACC__) || defined(__HIPCC__)
  #define PPE_TD_HD       __host__ __device__ static inline
  #define PPE_TD_RESTRICT __restrict__
#elif defined(__GNUC__)
  /* inlined into each host instance, where the views' strides become constants */
  #define PPE_TD_HD       static inline __attribute__((always_inline))
  #define PPE_TD_RESTRICT restrict
#else
  #define PPE_TD_HD       static inline
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
  #define PPE_TD_PREFETCH(p) ((void)0)
#endif
#ifndef PPE_TD_PF
  #define PPE_TD_PF 8
#endif
/* within PPE_TD_GROUPS: prefetch the lanes of row pointer p of view x, PPE_TD_PF rows ahead */
#define PPE_TD_AHEAD(p, x, i, iend) \
  do { \
    if ((i) + PPE_TD_PF < (iend)) { \
      PPE_TD_PREFETCH((p) + PPE_TD_PF * (x).rs + (long)R.l0 * (x).ls); \
      PPE_TD_PREFETCH((p) + PPE_TD_PF * (x).rs + (long)(R.l1 - 1) * (x).ls); \
    } \
  } while (0)

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

/* Loops and row pointers: within PPE_TD_GROUPS, P(p, x, i) declares p as row i of view x
   for group g (W: writable), and E(p, x) is lane l of that row. */
#define PPE_TD_GROUPS(R) for (int g = (R).g0; g < (R).g1; g++)
#define PPE_TD_LANE(R)   PPE_TD_SIMD PPE_TD_NOUNROLL for (int l = (R).l0; l < (R).l1; l++)
#define PPE_TD_W(p, x, i) double *PPE_TD_RESTRICT p = (x).v + (long)g * (x).gs + (long)(i) * (x).rs
#define PPE_TD_P(p, x, i) const double *PPE_TD_RESTRICT p = (x).v + (long)g * (x).gs + (long)(i) * (x).rs
#define PPE_TD_E(p, x)    (p)[(long)l * (x).ls]
/* the row excess r_i of the fly kernels, from row pointers ke, kw and the lane's shift ks */
#define PPE_TD_P_R(K, i) \
  PPE_TD_P(ke, (K).e, i); \
  PPE_TD_P(kw, (K).w, i); \
  PPE_TD_P(ks, (K).shift, 0)
#define PPE_TD_E_R(K) (PPE_TD_E(ke, (K).e) + PPE_TD_E(ks, (K).shift) * PPE_TD_E(kw, (K).w))

/* A read-only view of a scratch array. */
PPE_TD_HD ppe_td_carr ppe_td_const(ppe_td_arr x)
{
  ppe_td_carr c;

  c.v  = x.v;
  c.gs = x.gs;
  c.rs = x.rs;
  c.ls = x.ls;
  return c;
}

/* Forward sweep y_i = d_i - (A_i ip_{i-1}) y_{i-1}, rows i0..i1-1 (pre-computed factors). */
PPE_TD_HD void ppe_td_forward(ppe_td_lanes R, long i0, long i1, ppe_td_carr A, ppe_td_carr ip, ppe_td_arr d)
{
  for (long i = i0; i < i1; i++) PPE_TD_GROUPS(R)
    {
      PPE_TD_W(y, d, i);
      PPE_TD_P(y1, d, i - 1);
      PPE_TD_P(a, A, i);
      PPE_TD_P(p, ip, i - 1);
      PPE_TD_AHEAD(y, d, i, i1);
      PPE_TD_LANE(R) PPE_TD_E(y, d) = PPE_TD_E(y, d) - (PPE_TD_E(a, A) * PPE_TD_E(p, ip)) * PPE_TD_E(y1, d);
    }
}

/* Backward sweep x_i = (y_i - C_i x_{i+1}) ip_i, rows i = i1-1 down to i0. */
PPE_TD_HD void ppe_td_backward(ppe_td_lanes R, long i0, long i1, ppe_td_carr C, ppe_td_carr ip, ppe_td_arr d)
{
  for (long i = i1 - 1; i >= i0; i--) PPE_TD_GROUPS(R)
    {
      PPE_TD_W(y, d, i);
      PPE_TD_P(y1, d, i + 1);
      PPE_TD_P(c, C, i);
      PPE_TD_P(p, ip, i);
      PPE_TD_LANE(R) PPE_TD_E(y, d) = (PPE_TD_E(y, d) - PPE_TD_E(c, C) * PPE_TD_E(y1, d)) * PPE_TD_E(p, ip);
    }
}

/* Row i of d times a per-lane (rs = 0) or per-row factor s. */
PPE_TD_HD void ppe_td_scale(ppe_td_lanes R, long i, ppe_td_carr s, long is, ppe_td_arr d)
{
  PPE_TD_GROUPS(R)
  {
    PPE_TD_W(y, d, i);
    PPE_TD_P(f, s, is);
    PPE_TD_LANE(R) PPE_TD_E(y, d) = PPE_TD_E(y, d) * PPE_TD_E(f, s);
  }
}

/*
   Thomas, rows 0..n-1 (n >= 2), pre-computed: ip_0..ip_{n-2} and last = 1/p_{n-1}
   (0 for a pinned lane). Forward y_i = d_i - l_i y_{i-1}; backward x_i = (y_i - C_i x_{i+1}) ip_i.
*/
PPE_TD_HD void ppe_td_thomas(ppe_td_lanes R, long n, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_carr last, ppe_td_arr d)
{
  ppe_td_forward(R, 1, n, A, ip, d);
  ppe_td_scale(R, n - 1, last, 0, d);
  ppe_td_backward(R, 0, n - 1, C, ip, d);
}

/*
   Forward sweep with the factors computed on the fly (rows i0..i1-1, i0 >= 1): ip in s and
   sig in t, both already set for row i0-1.
*/
PPE_TD_HD void ppe_td_forward_fly(ppe_td_lanes R, long i0, long i1, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr d)
{
  for (long i = i0; i < i1; i++) PPE_TD_GROUPS(R)
    {
      PPE_TD_P_R(K, i);
      PPE_TD_P(a, K.a, i);
      PPE_TD_P(c, K.c, i);
      PPE_TD_W(si, s, i);
      PPE_TD_P(s1, s, i - 1);
      PPE_TD_W(ti, t, i);
      PPE_TD_P(t1, t, i - 1);
      PPE_TD_W(y, d, i);
      PPE_TD_P(y1, d, i - 1);
      PPE_TD_AHEAD(y, d, i, i1);
      PPE_TD_LANE(R)
      {
        double li = PPE_TD_E(a, K.a) * PPE_TD_E(s1, s);

        PPE_TD_E(ti, t) = PPE_TD_E_R(K) - PPE_TD_E(a, K.a) * (PPE_TD_E(t1, t) * PPE_TD_E(s1, s));
        PPE_TD_E(si, s) = 1.0 / (PPE_TD_E(ti, t) - PPE_TD_E(c, K.c));
        PPE_TD_E(y, d)  = PPE_TD_E(y, d) - li * PPE_TD_E(y1, d);
      }
    }
}

/* Start of a chain at row i: sig = r_i - A_i (with A = 0 for a line's first row), ip = 1/(sig - C_i). */
PPE_TD_HD void ppe_td_chain_start(ppe_td_lanes R, long i, int with_a, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t)
{
  PPE_TD_GROUPS(R)
  {
    PPE_TD_P_R(K, i);
    PPE_TD_P(a, K.a, i);
    PPE_TD_P(c, K.c, i);
    PPE_TD_W(si, s, i);
    PPE_TD_W(ti, t, i);
    PPE_TD_LANE(R)
    {
      PPE_TD_E(ti, t) = PPE_TD_E_R(K) - (with_a ? PPE_TD_E(a, K.a) : 0.0);
      PPE_TD_E(si, s) = 1.0 / (PPE_TD_E(ti, t) - PPE_TD_E(c, K.c));
    }
  }
}

/* Thomas with the factors computed on the fly: ip in s, sig in t (n rows each). */
PPE_TD_HD void ppe_td_thomas_fly(ppe_td_lanes R, long n, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr d)
{
  ppe_td_chain_start(R, 0, 0, K, s, t);
  ppe_td_forward_fly(R, 1, n - 1, K, s, t, d);
  PPE_TD_GROUPS(R)
  {
    PPE_TD_P_R(K, n - 1);
    PPE_TD_P(a, K.a, n - 1);
    PPE_TD_P(mk, K.mask, 0);
    PPE_TD_P(s1, s, n - 2);
    PPE_TD_P(t1, t, n - 2);
    PPE_TD_W(y, d, n - 1);
    PPE_TD_P(y1, d, n - 2);
    PPE_TD_LANE(R)
    {
      double li = PPE_TD_E(a, K.a) * PPE_TD_E(s1, s);
      double p  = PPE_TD_E_R(K) - PPE_TD_E(a, K.a) * (PPE_TD_E(t1, t) * PPE_TD_E(s1, s));
      double m  = PPE_TD_E(mk, K.mask);

      PPE_TD_E(y, d) = (PPE_TD_E(y, d) - li * PPE_TD_E(y1, d)) * (m * (1.0 / (m != 0.0 ? p : 1.0)));
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
PPE_TD_HD void ppe_td_pthomas(ppe_td_lanes R, long n, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_carr q, ppe_td_carr sinv, ppe_td_arr d)
{
  ppe_td_forward(R, 1, n - 1, A, ip, d);
  ppe_td_scale(R, n - 2, ip, n - 2, d);
  ppe_td_backward(R, 0, n - 2, C, ip, d);
  PPE_TD_GROUPS(R)
  {
    PPE_TD_W(x, d, n - 1);
    PPE_TD_P(y0, d, 0);
    PPE_TD_P(y2, d, n - 2);
    PPE_TD_P(a, A, n - 1);
    PPE_TD_P(c, C, n - 1);
    PPE_TD_P(si, sinv, 0);
    PPE_TD_LANE(R) PPE_TD_E(x, d) = (PPE_TD_E(x, d) - PPE_TD_E(c, C) * PPE_TD_E(y0, d) - PPE_TD_E(a, A) * PPE_TD_E(y2, d)) * PPE_TD_E(si, sinv);
  }
  for (long i = 0; i < n - 1; i++) PPE_TD_GROUPS(R)
    {
      PPE_TD_W(y, d, i);
      PPE_TD_P(x, d, n - 1);
      PPE_TD_P(qi, q, i);
      PPE_TD_LANE(R) PPE_TD_E(y, d) = PPE_TD_E(y, d) - PPE_TD_E(qi, q) * PPE_TD_E(x, d);
    }
}

/* Periodic Thomas on the fly: factors in s, h in t, sig in u (n rows each). */
PPE_TD_HD void ppe_td_pthomas_fly(ppe_td_lanes R, long n, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_arr d)
{
  ppe_td_chain_start(R, 0, 1, K, s, u);
  PPE_TD_GROUPS(R)
  {
    PPE_TD_P_R(K, 0);
    PPE_TD_W(h, t, 0);
    PPE_TD_LANE(R) PPE_TD_E(h, t) = PPE_TD_E_R(K);
  }
  for (long i = 1; i < n - 1; i++) PPE_TD_GROUPS(R)
    {
      PPE_TD_P_R(K, i);
      PPE_TD_P(a, K.a, i);
      PPE_TD_P(c, K.c, i);
      PPE_TD_W(si, s, i);
      PPE_TD_P(s1, s, i - 1);
      PPE_TD_W(ui, u, i);
      PPE_TD_P(u1, u, i - 1);
      PPE_TD_W(h, t, i);
      PPE_TD_P(h1, t, i - 1);
      PPE_TD_W(y, d, i);
      PPE_TD_P(y1, d, i - 1);
      PPE_TD_AHEAD(y, d, i, n - 1);
      PPE_TD_LANE(R)
      {
        double li = PPE_TD_E(a, K.a) * PPE_TD_E(s1, s);

        PPE_TD_E(ui, u) = PPE_TD_E_R(K) - PPE_TD_E(a, K.a) * (PPE_TD_E(u1, u) * PPE_TD_E(s1, s));
        PPE_TD_E(si, s) = 1.0 / (PPE_TD_E(ui, u) - PPE_TD_E(c, K.c));
        PPE_TD_E(h, t)  = PPE_TD_E_R(K) - li * PPE_TD_E(h1, t);
        PPE_TD_E(y, d)  = PPE_TD_E(y, d) - li * PPE_TD_E(y1, d);
      }
    }
  ppe_td_scale(R, n - 2, ppe_td_const(s), n - 2, d);
  ppe_td_scale(R, n - 2, ppe_td_const(s), n - 2, t);
  ppe_td_backward(R, 0, n - 2, K.c, ppe_td_const(s), d);
  ppe_td_backward(R, 0, n - 2, K.c, ppe_td_const(s), t);
  PPE_TD_GROUPS(R)
  {
    PPE_TD_P_R(K, n - 1);
    PPE_TD_P(a, K.a, n - 1);
    PPE_TD_P(c, K.c, n - 1);
    PPE_TD_P(mk, K.mask, 0);
    PPE_TD_P(h0, t, 0);
    PPE_TD_P(h2, t, n - 2);
    PPE_TD_W(x, d, n - 1);
    PPE_TD_P(y0, d, 0);
    PPE_TD_P(y2, d, n - 2);
    PPE_TD_LANE(R)
    {
      double den = PPE_TD_E_R(K) - PPE_TD_E(c, K.c) * PPE_TD_E(h0, t) - PPE_TD_E(a, K.a) * PPE_TD_E(h2, t);
      double m   = PPE_TD_E(mk, K.mask);

      PPE_TD_E(x, d) = (PPE_TD_E(x, d) - PPE_TD_E(c, K.c) * PPE_TD_E(y0, d) - PPE_TD_E(a, K.a) * PPE_TD_E(y2, d)) * (m * (1.0 / (m != 0.0 ? den : 1.0)));
    }
  }
  for (long i = 0; i < n - 1; i++) PPE_TD_GROUPS(R)
    {
      PPE_TD_W(y, d, i);
      PPE_TD_P(x, d, n - 1);
      PPE_TD_P(h, t, i);
      PPE_TD_LANE(R) PPE_TD_E(y, d) = PPE_TD_E(y, d) - (PPE_TD_E(h, t) - 1.0) * PPE_TD_E(x, d);
    }
}

/* The boundary right-hand sides of the reduction, from g = T^{-1} d in place (m >= 2). */
PPE_TD_HD void ppe_td_reduce_ends(ppe_td_lanes R, long m, ppe_td_carr A, ppe_td_carr C, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  PPE_TD_GROUPS(R)
  {
    PPE_TD_P(y0, d, 0);
    PPE_TD_P(y1, d, 1);
    PPE_TD_P(y2, d, m - 2);
    PPE_TD_P(y3, d, m - 1);
    PPE_TD_P(c, C, 0);
    PPE_TD_P(a, A, m - 1);
    PPE_TD_W(o0, r0, 0);
    PPE_TD_W(o1, r1, 0);
    PPE_TD_LANE(R)
    {
      if (m >= 3) {
        PPE_TD_E(o0, r0) = PPE_TD_E(y0, d) - PPE_TD_E(c, C) * PPE_TD_E(y1, d);
        PPE_TD_E(o1, r1) = PPE_TD_E(y3, d) - PPE_TD_E(a, A) * PPE_TD_E(y2, d);
      } else {
        PPE_TD_E(o0, r0) = PPE_TD_E(y0, d);
        PPE_TD_E(o1, r1) = PPE_TD_E(y3, d);
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
PPE_TD_HD void ppe_td_reduce(ppe_td_lanes R, long m, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  if (m >= 3) {
    ppe_td_forward(R, 2, m - 1, A, ip, d);
    ppe_td_scale(R, m - 2, ip, m - 2, d);
    ppe_td_backward(R, 1, m - 2, C, ip, d);
  }
  ppe_td_reduce_ends(R, m, A, C, d, r0, r1);
}

/* The local reduction with the interior factors computed on the fly: ip in s, sig in u. */
PPE_TD_HD void ppe_td_reduce_fly(ppe_td_lanes R, long m, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr u, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  if (m >= 3) {
    ppe_td_chain_start(R, 1, 1, K, s, u);
    ppe_td_forward_fly(R, 2, m - 1, K, s, u, d);
    ppe_td_scale(R, m - 2, ppe_td_const(s), m - 2, d);
    ppe_td_backward(R, 1, m - 2, K.c, ppe_td_const(s), d);
  }
  ppe_td_reduce_ends(R, m, K.a, K.c, d, r0, r1);
}

/* The boundary rows take the boundary unknowns. */
PPE_TD_HD void ppe_td_recon_ends(ppe_td_lanes R, long m, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  PPE_TD_GROUPS(R)
  {
    PPE_TD_W(y0, d, 0);
    PPE_TD_W(y3, d, m - 1);
    PPE_TD_P(b0, x0, 0);
    PPE_TD_P(b1, x1, 0);
    PPE_TD_LANE(R)
    {
      PPE_TD_E(y0, d) = PPE_TD_E(b0, x0);
      PPE_TD_E(y3, d) = PPE_TD_E(b1, x1);
    }
  }
}

/*
   Reconstruction: with the boundary unknowns x0 = x_0 and x1 = x_{m-1} known,
     x_i = g_i - al_i x0 - be_i x1,   i = 1..m-2,
   where al = T^{-1} (A_1 e_1) and be = T^{-1} (C_{m-2} e_{m-2}) (pre-computed).
*/
PPE_TD_HD void ppe_td_recon(ppe_td_lanes R, long m, ppe_td_carr al, ppe_td_carr be, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  for (long i = 1; i < m - 1; i++) PPE_TD_GROUPS(R)
    {
      PPE_TD_W(y, d, i);
      PPE_TD_P(p, al, i);
      PPE_TD_P(q, be, i);
      PPE_TD_P(b0, x0, 0);
      PPE_TD_P(b1, x1, 0);
      PPE_TD_AHEAD(y, d, i, m - 1);
      PPE_TD_LANE(R) PPE_TD_E(y, d) = PPE_TD_E(y, d) - PPE_TD_E(p, al) * PPE_TD_E(b0, x0) - PPE_TD_E(q, be) * PPE_TD_E(b1, x1);
    }
  ppe_td_recon_ends(R, m, x0, x1, d);
}

/*
   Reconstruction on the fly: a forward sweep over the coefficients recomputes the factors
   (s, with sig in u) and the forward part of al (t: t_1 = A_1, t_i = -(l_i t_{i-1})); the
   backward sweep finishes al and be (be in u) and updates d.
*/
PPE_TD_HD void ppe_td_recon_fly(ppe_td_lanes R, long m, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  if (m >= 3) {
    ppe_td_chain_start(R, 1, 1, K, s, u);
    PPE_TD_GROUPS(R)
    {
      PPE_TD_P(a, K.a, 1);
      PPE_TD_W(al, t, 1);
      PPE_TD_LANE(R) PPE_TD_E(al, t) = PPE_TD_E(a, K.a);
    }
    for (long i = 2; i < m - 1; i++) PPE_TD_GROUPS(R)
      {
        PPE_TD_P_R(K, i);
        PPE_TD_P(a, K.a, i);
        PPE_TD_P(c, K.c, i);
        PPE_TD_W(si, s, i);
        PPE_TD_P(s1, s, i - 1);
        PPE_TD_W(ui, u, i);
        PPE_TD_P(u1, u, i - 1);
        PPE_TD_W(al, t, i);
        PPE_TD_P(al1, t, i - 1);
        PPE_TD_LANE(R)
        {
          double li = PPE_TD_E(a, K.a) * PPE_TD_E(s1, s);

          PPE_TD_E(ui, u) = PPE_TD_E_R(K) - PPE_TD_E(a, K.a) * (PPE_TD_E(u1, u) * PPE_TD_E(s1, s));
          PPE_TD_E(si, s) = 1.0 / (PPE_TD_E(ui, u) - PPE_TD_E(c, K.c));
          PPE_TD_E(al, t) = -(li * PPE_TD_E(al1, t));
        }
      }
    PPE_TD_GROUPS(R)
    {
      PPE_TD_P(c, K.c, m - 2);
      PPE_TD_P(si, s, m - 2);
      PPE_TD_W(al, t, m - 2);
      PPE_TD_W(be, u, m - 2);
      PPE_TD_W(y, d, m - 2);
      PPE_TD_P(b0, x0, 0);
      PPE_TD_P(b1, x1, 0);
      PPE_TD_LANE(R)
      {
        PPE_TD_E(al, t) = PPE_TD_E(al, t) * PPE_TD_E(si, s);
        PPE_TD_E(be, u) = PPE_TD_E(c, K.c) * PPE_TD_E(si, s);
        PPE_TD_E(y, d)  = PPE_TD_E(y, d) - PPE_TD_E(al, t) * PPE_TD_E(b0, x0) - PPE_TD_E(be, u) * PPE_TD_E(b1, x1);
      }
    }
    for (long i = m - 3; i >= 1; i--) PPE_TD_GROUPS(R)
      {
        PPE_TD_P(c, K.c, i);
        PPE_TD_P(si, s, i);
        PPE_TD_W(al, t, i);
        PPE_TD_P(al1, t, i + 1);
        PPE_TD_W(be, u, i);
        PPE_TD_P(be1, u, i + 1);
        PPE_TD_W(y, d, i);
        PPE_TD_P(b0, x0, 0);
        PPE_TD_P(b1, x1, 0);
        if (i - PPE_TD_PF >= 1) { /* this sweep goes down the rows */
          PPE_TD_PREFETCH(y - PPE_TD_PF * d.rs + (long)R.l0 * d.ls);
          PPE_TD_PREFETCH(y - PPE_TD_PF * d.rs + (long)(R.l1 - 1) * d.ls);
        }
        PPE_TD_LANE(R)
        {
          PPE_TD_E(al, t) = (PPE_TD_E(al, t) - PPE_TD_E(c, K.c) * PPE_TD_E(al1, t)) * PPE_TD_E(si, s);
          PPE_TD_E(be, u) = (-(PPE_TD_E(c, K.c) * PPE_TD_E(be1, u))) * PPE_TD_E(si, s);
          PPE_TD_E(y, d)  = PPE_TD_E(y, d) - PPE_TD_E(al, t) * PPE_TD_E(b0, x0) - PPE_TD_E(be, u) * PPE_TD_E(b1, x1);
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

/* The arrays of one kernel call, as views of its first group. */
typedef struct {
  ppe_td_carr a, e, c, w, shift, mask; /* coefficients (fly kernels; e: excess of the diagonal) */
  ppe_td_carr ip, q, al, be, last;     /* factors (pre kernels); last: 1/p_{n-1} or sinv, per lane */
  ppe_td_arr  d;                       /* the data */
  ppe_td_arr  r0, r1;                  /* reduce: boundary right-hand sides, per lane */
  ppe_td_carr x0, x1;                  /* recon: boundary unknowns, per lane */
  ppe_td_arr  s, t, u;                 /* scratch of the fly kernels, block-local */
} PPETdArgs;

#endif
