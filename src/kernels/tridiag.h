/*
   Single-source bodies of the batched tridiagonal solvers (src/tridiag).

   Plain C over arrays (no PETSc objects), compiled by the host back end
   (src/backend/host/tridiag_host.c) and readable by nvcc/hipcc. A call works on a
   block of lanes (independent systems): groups g in [g0, g1) of lanes l in [l0, l1);
   the lane loop is innermost so that the sequential sweep along the rows runs over
   all lanes at once (vector lanes on a CPU, one thread per lane on a GPU, which calls
   with l1 = l0 + 1). Arrays are addressed through views

       element (g, i, l) of x  =  x.v[g*x.gs + i*x.rs + l*x.ls]

   so the same body reads the SZ-packed layout (gs = m*SZ, rs = SZ, ls = 1), the natural
   layout of a DMDA's z lines (gs = SZ, rs = nsys, ls = 1), coefficients shared by all
   lines (gs = 0, rs = 1, ls = 0) and per-lane scalars (rs = 0).

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
  #define PPE_TD_HD __host__ __device__ static inline
#elif defined(__GNUC__)
  /* inlined into each host instance, where the views' strides become constants */
  #define PPE_TD_HD static inline __attribute__((always_inline))
#else
  #define PPE_TD_HD static inline
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
#define PPE_TD_LANES(R) \
  for (int g = (R).g0; g < (R).g1; g++) \
    PPE_TD_SIMD for (int l = (R).l0; l < (R).l1; l++)

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

#define PPE_TD_AT(x, i) ((x).v[(long)g * (x).gs + (long)(i) * (x).rs + (long)l * (x).ls])

/* The coefficients of the fly kernels: r_i = e_i + shift * w_i. */
typedef struct {
  ppe_td_carr a, e, c, w; /* lower, excess of the diagonal, upper, weight of the shift */
  ppe_td_carr shift;      /* per lane (rs = 0) */
  ppe_td_carr mask;       /* per lane: 1, or 0 for a pinned line */
} ppe_td_coefs;

#define PPE_TD_R(K, i) (PPE_TD_AT((K).e, i) + PPE_TD_AT((K).shift, 0) * PPE_TD_AT((K).w, i))

/*
   Thomas, rows 0..n-1 (n >= 2), pre-computed: ip_0..ip_{n-2} and last = 1/p_{n-1}
   (0 for a pinned lane). Forward y_i = d_i - l_i y_{i-1}; backward x_i = (y_i - C_i x_{i+1}) ip_i.
*/
PPE_TD_HD void ppe_td_thomas(ppe_td_lanes R, long n, ppe_td_carr A, ppe_td_carr C, ppe_td_carr ip, ppe_td_carr last, ppe_td_arr d)
{
  for (long i = 1; i < n; i++) PPE_TD_LANES(R) PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - (PPE_TD_AT(A, i) * PPE_TD_AT(ip, i - 1)) * PPE_TD_AT(d, i - 1);
  PPE_TD_LANES(R) PPE_TD_AT(d, n - 1) = PPE_TD_AT(d, n - 1) * PPE_TD_AT(last, 0);
  for (long i = n - 2; i >= 0; i--) PPE_TD_LANES(R) PPE_TD_AT(d, i) = (PPE_TD_AT(d, i) - PPE_TD_AT(C, i) * PPE_TD_AT(d, i + 1)) * PPE_TD_AT(ip, i);
}

/* Thomas with the factors computed on the fly: ip in s, sig in t (n rows each). */
PPE_TD_HD void ppe_td_thomas_fly(ppe_td_lanes R, long n, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr d)
{
  PPE_TD_LANES(R)
  {
    PPE_TD_AT(t, 0) = PPE_TD_R(K, 0);
    PPE_TD_AT(s, 0) = 1.0 / (PPE_TD_AT(t, 0) - PPE_TD_AT(K.c, 0));
  }
  for (long i = 1; i < n - 1; i++) {
    PPE_TD_LANES(R)
    {
      double li = PPE_TD_AT(K.a, i) * PPE_TD_AT(s, i - 1);

      PPE_TD_AT(t, i) = PPE_TD_R(K, i) - PPE_TD_AT(K.a, i) * (PPE_TD_AT(t, i - 1) * PPE_TD_AT(s, i - 1));
      PPE_TD_AT(s, i) = 1.0 / (PPE_TD_AT(t, i) - PPE_TD_AT(K.c, i));
      PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - li * PPE_TD_AT(d, i - 1);
    }
  }
  PPE_TD_LANES(R)
  {
    double li = PPE_TD_AT(K.a, n - 1) * PPE_TD_AT(s, n - 2);
    double p  = PPE_TD_R(K, n - 1) - PPE_TD_AT(K.a, n - 1) * (PPE_TD_AT(t, n - 2) * PPE_TD_AT(s, n - 2));
    double mk = PPE_TD_AT(K.mask, 0);

    PPE_TD_AT(d, n - 1) = (PPE_TD_AT(d, n - 1) - li * PPE_TD_AT(d, n - 2)) * (mk * (1.0 / (mk != 0.0 ? p : 1.0)));
  }
  for (long i = n - 2; i >= 0; i--) PPE_TD_LANES(R) PPE_TD_AT(d, i) = (PPE_TD_AT(d, i) - PPE_TD_AT(K.c, i) * PPE_TD_AT(d, i + 1)) * PPE_TD_AT(s, i);
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
  for (long i = 1; i < n - 1; i++) PPE_TD_LANES(R) PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - (PPE_TD_AT(A, i) * PPE_TD_AT(ip, i - 1)) * PPE_TD_AT(d, i - 1);
  PPE_TD_LANES(R) PPE_TD_AT(d, n - 2) = PPE_TD_AT(d, n - 2) * PPE_TD_AT(ip, n - 2);
  for (long i = n - 3; i >= 0; i--) PPE_TD_LANES(R) PPE_TD_AT(d, i) = (PPE_TD_AT(d, i) - PPE_TD_AT(C, i) * PPE_TD_AT(d, i + 1)) * PPE_TD_AT(ip, i);
  PPE_TD_LANES(R) PPE_TD_AT(d, n - 1) = (PPE_TD_AT(d, n - 1) - PPE_TD_AT(C, n - 1) * PPE_TD_AT(d, 0) - PPE_TD_AT(A, n - 1) * PPE_TD_AT(d, n - 2)) * PPE_TD_AT(sinv, 0);
  for (long i = 0; i < n - 1; i++) PPE_TD_LANES(R) PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - PPE_TD_AT(q, i) * PPE_TD_AT(d, n - 1);
}

/* Periodic Thomas on the fly: factors in s, h in t, sig in u (n rows each). */
PPE_TD_HD void ppe_td_pthomas_fly(ppe_td_lanes R, long n, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_arr d)
{
  PPE_TD_LANES(R)
  {
    PPE_TD_AT(u, 0) = PPE_TD_R(K, 0) - PPE_TD_AT(K.a, 0);
    PPE_TD_AT(s, 0) = 1.0 / (PPE_TD_AT(u, 0) - PPE_TD_AT(K.c, 0));
    PPE_TD_AT(t, 0) = PPE_TD_R(K, 0);
  }
  for (long i = 1; i < n - 1; i++) {
    PPE_TD_LANES(R)
    {
      double li = PPE_TD_AT(K.a, i) * PPE_TD_AT(s, i - 1);

      PPE_TD_AT(u, i) = PPE_TD_R(K, i) - PPE_TD_AT(K.a, i) * (PPE_TD_AT(u, i - 1) * PPE_TD_AT(s, i - 1));
      PPE_TD_AT(s, i) = 1.0 / (PPE_TD_AT(u, i) - PPE_TD_AT(K.c, i));
      PPE_TD_AT(t, i) = PPE_TD_R(K, i) - li * PPE_TD_AT(t, i - 1);
      PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - li * PPE_TD_AT(d, i - 1);
    }
  }
  PPE_TD_LANES(R)
  {
    PPE_TD_AT(d, n - 2) = PPE_TD_AT(d, n - 2) * PPE_TD_AT(s, n - 2);
    PPE_TD_AT(t, n - 2) = PPE_TD_AT(t, n - 2) * PPE_TD_AT(s, n - 2);
  }
  for (long i = n - 3; i >= 0; i--) {
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(d, i) = (PPE_TD_AT(d, i) - PPE_TD_AT(K.c, i) * PPE_TD_AT(d, i + 1)) * PPE_TD_AT(s, i);
      PPE_TD_AT(t, i) = (PPE_TD_AT(t, i) - PPE_TD_AT(K.c, i) * PPE_TD_AT(t, i + 1)) * PPE_TD_AT(s, i);
    }
  }
  PPE_TD_LANES(R)
  {
    double den = PPE_TD_R(K, n - 1) - PPE_TD_AT(K.c, n - 1) * PPE_TD_AT(t, 0) - PPE_TD_AT(K.a, n - 1) * PPE_TD_AT(t, n - 2);
    double mk  = PPE_TD_AT(K.mask, 0);

    PPE_TD_AT(d, n - 1) = (PPE_TD_AT(d, n - 1) - PPE_TD_AT(K.c, n - 1) * PPE_TD_AT(d, 0) - PPE_TD_AT(K.a, n - 1) * PPE_TD_AT(d, n - 2)) * (mk * (1.0 / (mk != 0.0 ? den : 1.0)));
  }
  for (long i = 0; i < n - 1; i++) PPE_TD_LANES(R) PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - (PPE_TD_AT(t, i) - 1.0) * PPE_TD_AT(d, n - 1);
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
    for (long i = 2; i < m - 1; i++) PPE_TD_LANES(R) PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - (PPE_TD_AT(A, i) * PPE_TD_AT(ip, i - 1)) * PPE_TD_AT(d, i - 1);
    PPE_TD_LANES(R) PPE_TD_AT(d, m - 2) = PPE_TD_AT(d, m - 2) * PPE_TD_AT(ip, m - 2);
    for (long i = m - 3; i >= 1; i--) PPE_TD_LANES(R) PPE_TD_AT(d, i) = (PPE_TD_AT(d, i) - PPE_TD_AT(C, i) * PPE_TD_AT(d, i + 1)) * PPE_TD_AT(ip, i);
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(r0, 0) = PPE_TD_AT(d, 0) - PPE_TD_AT(C, 0) * PPE_TD_AT(d, 1);
      PPE_TD_AT(r1, 0) = PPE_TD_AT(d, m - 1) - PPE_TD_AT(A, m - 1) * PPE_TD_AT(d, m - 2);
    }
  } else {
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(r0, 0) = PPE_TD_AT(d, 0);
      PPE_TD_AT(r1, 0) = PPE_TD_AT(d, 1);
    }
  }
}

/* The local reduction with the interior factors computed on the fly: ip in s, sig in u. */
PPE_TD_HD void ppe_td_reduce_fly(ppe_td_lanes R, long m, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr u, ppe_td_arr d, ppe_td_arr r0, ppe_td_arr r1)
{
  if (m >= 3) {
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(u, 1) = PPE_TD_R(K, 1) - PPE_TD_AT(K.a, 1);
      PPE_TD_AT(s, 1) = 1.0 / (PPE_TD_AT(u, 1) - PPE_TD_AT(K.c, 1));
    }
    for (long i = 2; i < m - 1; i++) {
      PPE_TD_LANES(R)
      {
        double li = PPE_TD_AT(K.a, i) * PPE_TD_AT(s, i - 1);

        PPE_TD_AT(u, i) = PPE_TD_R(K, i) - PPE_TD_AT(K.a, i) * (PPE_TD_AT(u, i - 1) * PPE_TD_AT(s, i - 1));
        PPE_TD_AT(s, i) = 1.0 / (PPE_TD_AT(u, i) - PPE_TD_AT(K.c, i));
        PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - li * PPE_TD_AT(d, i - 1);
      }
    }
    PPE_TD_LANES(R) PPE_TD_AT(d, m - 2) = PPE_TD_AT(d, m - 2) * PPE_TD_AT(s, m - 2);
    for (long i = m - 3; i >= 1; i--) PPE_TD_LANES(R) PPE_TD_AT(d, i) = (PPE_TD_AT(d, i) - PPE_TD_AT(K.c, i) * PPE_TD_AT(d, i + 1)) * PPE_TD_AT(s, i);
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(r0, 0) = PPE_TD_AT(d, 0) - PPE_TD_AT(K.c, 0) * PPE_TD_AT(d, 1);
      PPE_TD_AT(r1, 0) = PPE_TD_AT(d, m - 1) - PPE_TD_AT(K.a, m - 1) * PPE_TD_AT(d, m - 2);
    }
  } else {
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(r0, 0) = PPE_TD_AT(d, 0);
      PPE_TD_AT(r1, 0) = PPE_TD_AT(d, 1);
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
  for (long i = 1; i < m - 1; i++) PPE_TD_LANES(R) PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - PPE_TD_AT(al, i) * PPE_TD_AT(x0, 0) - PPE_TD_AT(be, i) * PPE_TD_AT(x1, 0);
  PPE_TD_LANES(R)
  {
    PPE_TD_AT(d, 0)     = PPE_TD_AT(x0, 0);
    PPE_TD_AT(d, m - 1) = PPE_TD_AT(x1, 0);
  }
}

/*
   Reconstruction on the fly: a forward sweep over the coefficients recomputes the factors
   (s, with sig in u) and the forward part of al (t: t_1 = A_1, t_i = -(l_i t_{i-1})); the
   backward sweep finishes al and be (be in u) and updates d.
*/
PPE_TD_HD void ppe_td_recon_fly(ppe_td_lanes R, long m, ppe_td_coefs K, ppe_td_arr s, ppe_td_arr t, ppe_td_arr u, ppe_td_carr x0, ppe_td_carr x1, ppe_td_arr d)
{
  if (m >= 3) {
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(u, 1) = PPE_TD_R(K, 1) - PPE_TD_AT(K.a, 1);
      PPE_TD_AT(s, 1) = 1.0 / (PPE_TD_AT(u, 1) - PPE_TD_AT(K.c, 1));
      PPE_TD_AT(t, 1) = PPE_TD_AT(K.a, 1);
    }
    for (long i = 2; i < m - 1; i++) {
      PPE_TD_LANES(R)
      {
        double li = PPE_TD_AT(K.a, i) * PPE_TD_AT(s, i - 1);

        PPE_TD_AT(u, i) = PPE_TD_R(K, i) - PPE_TD_AT(K.a, i) * (PPE_TD_AT(u, i - 1) * PPE_TD_AT(s, i - 1));
        PPE_TD_AT(s, i) = 1.0 / (PPE_TD_AT(u, i) - PPE_TD_AT(K.c, i));
        PPE_TD_AT(t, i) = -(li * PPE_TD_AT(t, i - 1));
      }
    }
    PPE_TD_LANES(R)
    {
      PPE_TD_AT(t, m - 2) = PPE_TD_AT(t, m - 2) * PPE_TD_AT(s, m - 2);
      PPE_TD_AT(u, m - 2) = PPE_TD_AT(K.c, m - 2) * PPE_TD_AT(s, m - 2);
      PPE_TD_AT(d, m - 2) = PPE_TD_AT(d, m - 2) - PPE_TD_AT(t, m - 2) * PPE_TD_AT(x0, 0) - PPE_TD_AT(u, m - 2) * PPE_TD_AT(x1, 0);
    }
    for (long i = m - 3; i >= 1; i--) {
      PPE_TD_LANES(R)
      {
        PPE_TD_AT(t, i) = (PPE_TD_AT(t, i) - PPE_TD_AT(K.c, i) * PPE_TD_AT(t, i + 1)) * PPE_TD_AT(s, i);
        PPE_TD_AT(u, i) = (-(PPE_TD_AT(K.c, i) * PPE_TD_AT(u, i + 1))) * PPE_TD_AT(s, i);
        PPE_TD_AT(d, i) = PPE_TD_AT(d, i) - PPE_TD_AT(t, i) * PPE_TD_AT(x0, 0) - PPE_TD_AT(u, i) * PPE_TD_AT(x1, 0);
      }
    }
  }
  PPE_TD_LANES(R)
  {
    PPE_TD_AT(d, 0)     = PPE_TD_AT(x0, 0);
    PPE_TD_AT(d, m - 1) = PPE_TD_AT(x1, 0);
  }
}

#endif
