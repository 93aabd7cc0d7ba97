/*
   Device launchers of the Krylov vector kernels: local dot products and the fused Bi-CGSTAB
   updates (src/kernels/krylov.h), the Chebyshev iteration's vector steps
   (src/kernels/chebyci.h), and the fixed-order sum of partial sums that the reductions of
   every family share (PPEDevReduce).

   Element-wise kernels: one thread per element, the body on n = 1 at offset pointers, so
   each value is the host's (src/krylov/bcgskernels.c, src/chebyci/chebyci.c) bit for bit.

   Reductions (dot, sum, bcgs_update_r): one thread per chunk of PPE_DEV_RED_CHUNK values runs the
   host's body on its chunk and writes its partial sums to work; PPEDevReduce adds them up in
   a tree of fixed shape (groups of PPE_DEV_RED_CHUNK consecutive partials, in index order),
   and the sums are copied to the host. The result depends on n and the data only, and the
   host's launchers of KSP bcgsfused redo this order (ppe_dot_tree, ppe_bcgs_update_r_tree and
   ppe_red in src/kernels/krylov.h), so their sums are the device's bits.
*/
#include "ops.h"

/* ---- fixed-order sum of partial sums ---- */

typedef struct {
  double *w;       /* work: the partials of column q at w[q*nc + c] */
  double *out;     /* last level: the sum of column q at out[q] */
  long    nc;      /* partials per column */
  long    stride;  /* distance of a level's live values in w */
  long    count;   /* live values per column */
  long    ngroups; /* threads per column */
} ppe_dev_red_args;

/* Thread (q, g) sums live values [g*CHUNK, (g+1)*CHUNK) of column q in index order, into the
   first of them (the group is the thread's own) or, on the last level, into out[q]. */
PPE_DEV_KERNEL(ppe_dev_red_level, ppe_dev_red_args)
{
  long          q = t / a->ngroups, g = t % a->ngroups;
  long          i0 = g * PPE_DEV_RED_CHUNK, i1 = i0 + PPE_DEV_RED_CHUNK < a->count ? i0 + PPE_DEV_RED_CHUNK : a->count;
  const double *w = a->w + q * a->nc;
  double        s = 0.0;

  for (long i = i0; i < i1; i++) s += w[i * a->stride];
  if (a->out) a->out[q] = s;
  else a->w[q * a->nc + i0 * a->stride] = s;
}

/* work[ncols*nc + q] = sum over c < nc of work[q*nc + c], q < ncols (the partials are
   overwritten). Asynchronous. Needs (nc + 1) ncols doubles: PPE_DEV_RED_WORK. */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevReduce)(long nc, int ncols, double *work, void *stream)
{
  ppe_dev_red_args a;

  a.w      = work;
  a.out    = NULL;
  a.nc     = nc;
  a.stride = 1;
  a.count  = nc;
  while (a.count > PPE_DEV_RED_CHUNK) {
    a.ngroups = (a.count + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
    PPE_DEV_LAUNCH(ppe_dev_red_level, (long)ncols * a.ngroups, stream, a);
    a.stride *= PPE_DEV_RED_CHUNK;
    a.count = a.ngroups;
  }
  a.ngroups = 1;
  a.out     = work + (size_t)ncols * (size_t)nc;
  PPE_DEV_LAUNCH(ppe_dev_red_level, ncols, stream, a);
  return 0;
}

/* ---- dot products ---- */

typedef struct {
  const double *y, *u0, *u1;
  double       *w;
  long          n, nc;
} ppe_dev_dot_args;

/* thread (q, c): the dot of chunk c with u_q */
PPE_DEV_KERNEL(ppe_dev_dot, ppe_dev_dot_args)
{
  long q = t / a->nc, c = t % a->nc, p0 = c * PPE_DEV_RED_CHUNK;
  long len = a->n - p0 < PPE_DEV_RED_CHUNK ? a->n - p0 : PPE_DEV_RED_CHUNK;

  a->w[t] = ppe_dot_seg(len, a->y + p0, (q ? a->u1 : a->u0) + p0);
}

/* work: PPE_DEV_RED_WORK(n, nd) doubles */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevDot)(long n, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream)
{
  ppe_dev_dot_args a;

  if (nd <= 0) return 0;
  a.y  = y;
  a.u0 = u0;
  a.u1 = u1;
  a.w  = work;
  a.n  = n > 0 ? n : 0;
  a.nc = (a.n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
  PPE_DEV_LAUNCH(ppe_dev_dot, (long)nd * a.nc, stream, a);
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevReduce)(a.nc, nd, work, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevCopy)(s, work + (size_t)nd * (size_t)a.nc, (size_t)nd * sizeof(double), PPE_DEV_D2H, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevSync)(stream));
  return 0;
}

/* ---- sum of the entries ---- */

typedef struct {
  const double *x;
  double       *w;
  long          n;
} ppe_dev_sum_args;

/* thread c: the sum of chunk c */
PPE_DEV_KERNEL(ppe_dev_sum, ppe_dev_sum_args)
{
  long p0 = t * PPE_DEV_RED_CHUNK, len = a->n - p0 < PPE_DEV_RED_CHUNK ? a->n - p0 : PPE_DEV_RED_CHUNK;

  a->w[t] = ppe_sum_seg(len, a->x + p0);
}

/* *s = sum of x[0..n) in the order of a dot product with ones; work: PPE_DEV_RED_WORK(n, 1) doubles */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevSum)(long n, const double *x, double *work, double *s, void *stream)
{
  ppe_dev_sum_args a;
  long             nc;

  a.x = x;
  a.w = work;
  a.n = n > 0 ? n : 0;
  nc  = (a.n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
  PPE_DEV_LAUNCH(ppe_dev_sum, nc, stream, a);
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevReduce)(nc, 1, work, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevCopy)(s, work + nc, sizeof(double), PPE_DEV_D2H, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevSync)(stream));
  return 0;
}

/* ---- Chebyshev iteration ---- */

typedef struct {
  double        theta, c1, rho, rho_old, s2, d2;
  const double *dinv, *bin, *b, *tv, *y, *z; /* tv: t = A b or A y */
  double       *bout, *zout, *yout, *w;
} ppe_dev_ci_args;

PPE_DEV_KERNEL(ppe_dev_ci_scale, ppe_dev_ci_args)
{
  ppe_ci_scale(1, a->dinv + t, a->bin + t, a->bout + t);
}

PPE_DEV_KERNEL(ppe_dev_ci_first, ppe_dev_ci_args)
{
  ppe_ci_first(1, a->theta, a->c1, a->dinv ? a->dinv + t : NULL, a->b + t, a->tv + t, a->zout + t, a->yout + t);
}

PPE_DEV_KERNEL(ppe_dev_ci_step, ppe_dev_ci_args)
{
  ppe_ci_step(1, a->rho, a->rho_old, a->s2, a->d2, a->dinv ? a->dinv + t : NULL, a->b + t, a->tv + t, a->y + t, a->z + t, a->w + t);
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevCIScale)(long n, const double *dinv, const double *bin, double *b, void *stream)
{
  ppe_dev_ci_args a;

  memset(&a, 0, sizeof(a));
  a.dinv = dinv;
  a.bin  = bin;
  a.bout = b;
  PPE_DEV_LAUNCH(ppe_dev_ci_scale, n, stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevCIFirst)(long n, double theta, double c1, const double *dinv, const double *b, const double *t, double *z, double *y, void *stream)
{
  ppe_dev_ci_args a;

  memset(&a, 0, sizeof(a));
  a.theta = theta;
  a.c1    = c1;
  a.dinv  = dinv;
  a.b     = b;
  a.tv    = t;
  a.zout  = z;
  a.yout  = y;
  PPE_DEV_LAUNCH(ppe_dev_ci_first, n, stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevCIStep)(long n, double rho, double rho_old, double s2, double d2, const double *dinv, const double *b, const double *t, const double *y, const double *z, double *w, void *stream)
{
  ppe_dev_ci_args a;

  memset(&a, 0, sizeof(a));
  a.rho     = rho;
  a.rho_old = rho_old;
  a.s2      = s2;
  a.d2      = d2;
  a.dinv    = dinv;
  a.b       = b;
  a.tv      = t;
  a.y       = y;
  a.z       = z;
  a.w       = w;
  PPE_DEV_LAUNCH(ppe_dev_ci_step, n, stream, a);
  return 0;
}

/* ---- Bi-CGSTAB ---- */

typedef struct {
  double        alpha, beta, omega;
  const double *w, *ph, *rh, *r, *tv, *rt; /* tv: t of KernelBiCGS5 */
  double       *rout, *x, *p, *part;
  long          n, nc;
} ppe_dev_bcgs_args;

PPE_DEV_KERNEL(ppe_dev_bcgs_axpy, ppe_dev_bcgs_args)
{
  ppe_bcgs_axpy(1, a->alpha, a->w + t, a->rout + t);
}

PPE_DEV_KERNEL(ppe_dev_bcgs_update_x, ppe_dev_bcgs_args)
{
  ppe_bcgs_update_x(1, a->alpha, a->omega, a->ph + t, a->rh + t, a->x + t);
}

PPE_DEV_KERNEL(ppe_dev_bcgs_update_p, ppe_dev_bcgs_args)
{
  ppe_bcgs_update_p(1, a->beta, a->omega, a->r + t, a->w + t, a->p + t);
}

/* thread c: chunk c of r, its partial rt'r at part[c], r'r at part[nc + c] */
PPE_DEV_KERNEL(ppe_dev_bcgs_update_r, ppe_dev_bcgs_args)
{
  long   p0  = t * PPE_DEV_RED_CHUNK;
  long   len = a->n - p0 < PPE_DEV_RED_CHUNK ? a->n - p0 : PPE_DEV_RED_CHUNK;
  double s[2];

  ppe_bcgs_update_r(len, a->omega, a->tv + p0, a->rt + p0, a->rout + p0, s);
  a->part[t]         = s[0];
  a->part[a->nc + t] = s[1];
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSAxpy)(long n, double alpha, const double *w, double *r, void *stream)
{
  ppe_dev_bcgs_args a;

  memset(&a, 0, sizeof(a));
  a.alpha = alpha;
  a.w     = w;
  a.rout  = r;
  PPE_DEV_LAUNCH(ppe_dev_bcgs_axpy, n, stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSUpdateX)(long n, double alpha, double omega, const double *ph, const double *rh, double *x, void *stream)
{
  ppe_dev_bcgs_args a;

  memset(&a, 0, sizeof(a));
  a.alpha = alpha;
  a.omega = omega;
  a.ph    = ph;
  a.rh    = rh;
  a.x     = x;
  PPE_DEV_LAUNCH(ppe_dev_bcgs_update_x, n, stream, a);
  return 0;
}

/* work: PPE_DEV_RED_WORK(n, 2) doubles */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSUpdateR)(long n, double omega, const double *t, const double *rt, double *r, double *work, double *s, void *stream)
{
  ppe_dev_bcgs_args a;

  memset(&a, 0, sizeof(a));
  a.omega = omega;
  a.tv    = t;
  a.rt    = rt;
  a.rout  = r;
  a.part  = work;
  a.n     = n > 0 ? n : 0;
  a.nc    = (a.n + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK;
  PPE_DEV_LAUNCH(ppe_dev_bcgs_update_r, a.nc, stream, a);
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevReduce)(a.nc, 2, work, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevCopy)(s, work + 2 * (size_t)a.nc, 2 * sizeof(double), PPE_DEV_D2H, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevSync)(stream));
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSUpdateP)(long n, double beta, double omega, const double *r, const double *w, double *p, void *stream)
{
  ppe_dev_bcgs_args a;

  memset(&a, 0, sizeof(a));
  a.beta  = beta;
  a.omega = omega;
  a.r     = r;
  a.w     = w;
  a.p     = p;
  PPE_DEV_LAUNCH(ppe_dev_bcgs_update_p, n, stream, a);
  return 0;
}

/* ---- y = a x + b y + c ---- */

typedef struct {
  double        a, b, c;
  const double *x;
  double       *y;
} ppe_dev_axpbyc_args;

PPE_DEV_KERNEL(ppe_dev_axpbyc, ppe_dev_axpbyc_args)
{
  ppe_axpbyc(1, a->a, a->x ? a->x + t : NULL, a->b, a->y + t, a->c);
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevAXPBYC)(long n, double alpha, const double *x, double beta, double *y, double gamma, void *stream)
{
  ppe_dev_axpbyc_args a;

  a.a = alpha;
  a.b = beta;
  a.c = gamma;
  a.x = x;
  a.y = y;
  PPE_DEV_LAUNCH(ppe_dev_axpbyc, n, stream, a);
  return 0;
}
