/*
   The interface of a back end: memory, streams, and one launcher per hot loop, each running
   the single-source body of src/kernels. Plain C, no PETSc: the library calls every back end
   through the same table of function pointers, PPEBackendOps, one table per back end built:

     host   src/backend/host/host.c: host memory (copies between two arrays of it are plain
            copies), no streams (every launch has finished when it returns), the host
            launchers with their instruction-set instances;
     emu    the device launch code of src/backend/device run by host loops (always built);
     cuda   the same code compiled by nvcc (--with-cuda);
     hip    the same code compiled by hipcc (--with-hip).

   Pointers named in the launchers' arguments are in the back end's memory unless marked
   "host". Every function returns 0 or the runtime's error code (text: errstr()). Launchers
   are asynchronous on their stream, except those that return numbers to the host (dot, sum,
   stencil_dot, bcgs_update_r, ts_gram), which synchronise it.

   The device back ends count what crosses between host and device memory in
   ppe_dev_traffic (PPECounters.device_bytes and device_halo_bytes): the bytes of their copy
   entry (host to device and back; not device to device) and the numbers that the reductions
   return. The host back end moves nothing across.
*/
#ifndef PPE_BACKEND_DEVICE_DEVICE_H
#define PPE_BACKEND_DEVICE_DEVICE_H

#include <stddef.h>
#include <kernels/stencil7.h>
#include <kernels/krylov.h>
#include <kernels/chebyci.h>
#include <kernels/tridiag.h>
#include <kernels/tileilu.h>
#include <kernels/tsblock.h>
#include <kernels/transpose.h>
#include <kernels/fft.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Most columns of one tall-skinny launch (PPE_TS_MAXCOLS of the host, rounded up to whole
   tiles). */
#define PPE_DEV_TS_MAXCOLS 48

/* Error codes of a back end's FFT library are returned as PPE_DEV_FFT_ERR + the library's
   code (above every runtime error code). */
#define PPE_DEV_FFT_ERR 100000

/* Directions of a copy. */
typedef enum {
  PPE_DEV_H2D,
  PPE_DEV_D2H,
  PPE_DEV_D2D
} ppe_dev_copy_kind;

/* The stencil on a rank's box (PPEStencilBox, with the 1D tables in device memory). */
typedef struct {
  ppe_s7_dir   X, Y, Z;
  double       sigma;
  long         N[3];
  int          per[3];
  long         xs, ys, zs, xm, ym, zm;
  int          nb[6]; /* faces whose neighbour values come from the halo */
  ppe_s7_faces K;     /* face coefficients of the variable operator in device memory (K.x NULL: constant) */
} ppe_dev_box;

/* Halo faces (layout of PPEStencilHalo), NULL where nb[] is 0. */
typedef struct {
  const double *f[6];
} ppe_dev_halo;

/* The fused Chebyshev step (PPEStencilCI). */
typedef struct {
  double        rho, rho_old, s2, d2;
  const double *b, *z, *dinv;
  double       *w;
} ppe_dev_ci;

/* Several Chebyshev steps of one iteration temporally blocked: the levels j0..j1 of
   PPEChebyCISolve() (level 1 is KernelCI1, level j >= 2 the j-th KernelCI2 step) in one
   wavefront over the box's z planes, on the rank-local block (a neighbour across a face with
   another rank is 0, a periodic direction held whole wraps): level j of plane k is computed
   after level j - 1 of plane k + 1, the levels inside live in rings of four planes, and only
   the last two levels are stored over the box. j0 is 1 or >= 3 (level 0, z = b/theta, is formed
   where it is read); zout is wanted only when j1 > j0. */
typedef struct {
  long          j0, j1;
  double        theta, c1, s2, d2; /* KernelCI1's theta and 2 rho/delta; KernelCI2's 2 sigma, 2/delta */
  const double *rho, *rho_old;     /* host: the step scalars of level j at [j] */
  const double *b, *dinv;          /* the scaled right-hand side, D^-1 (NULL: D = I) */
  const double *y, *z;             /* levels j0 - 1 and j0 - 2 (unused when j0 == 1) */
  double       *yout, *zout;       /* levels j1 and j1 - 1 (zout NULL: not stored) */
  double       *work;              /* PPE_DEV_CI_SWEEP_WORK(B, j1 - j0 + 1) doubles */
} ppe_dev_ci_sweep;

/* Doubles of the work of a sweep of nlev levels over box B: four planes per level and one
   more, two rows. */
#define PPE_DEV_CI_SWEEP_WORK(B, nlev) (((size_t)(nlev)*4 + 1) * (size_t)(B)->xm * (size_t)(B)->ym + 2 * (size_t)(B)->xm)

/* Phases of a stencil launch: the points that need no halo value, the others, or all. */
enum {
  PPE_DEV_CORE,
  PPE_DEV_SURFACE,
  PPE_DEV_ALL
};

/* The tiles of PC tileilu on a rank (PPETileILU without its arrays). */
typedef struct {
  int  sym;     /* symmetric storage of the factors */
  long nloc;    /* points of the box */
  long box[3];  /* extent of the box */
  long tile[3]; /* tile shape */
  long nt[3];   /* tiles per direction */
  long ntiles;
  long lanes;   /* zyx: tiles per group */
  long ngroups; /* zyx: groups */
  long nc;      /* factor kinds stored per point */
  long chunk;   /* zyx on the host: groups gathered and scattered together (consecutive groups of one tile row, or 1) */
} ppe_dev_tiles;

/* Device doubles a reduction of n values needs as work space (dot: ncols = nd, sum: 1,
   bcgs_update_r: 2, ts_gram with n rows: nx ny). */
#define PPE_DEV_RED_CHUNK          PPE_RED_CHUNK /* kernels/krylov.h: the host's ppe_red follows the same order */
#define PPE_DEV_RED_WORK(n, ncols) ((size_t)((((n) + PPE_DEV_RED_CHUNK - 1) / PPE_DEV_RED_CHUNK) + 1) * (size_t)(ncols))
/* Device doubles of the work of stencil_dot over nr rows (a partial per row and dot product, and the sums) */
#define PPE_DEV_ROW_RED_WORK(nr, nd) (((size_t)(nr) + 1) * (size_t)(nd))
/* Device doubles of the work of ts_combine (B padded with zero columns to whole tiles). */
#define PPE_DEV_TS_COMBINE_WORK(k, m) ((size_t)(k) * (size_t)((((m) + PPE_TS_TB - 1) / PPE_TS_TB) * PPE_TS_TB))

/* Bytes between host and device memory so far (this process), counted by the device back
   ends: copies into bytes, or into halo_bytes while halo is set (the library's MPI traffic
   through host memory: halo faces, transposes); the numbers that the reductions return into
   bytes. Defined in src/backend/host/host.c. */
typedef struct {
  double bytes, halo_bytes;
  int    halo;
} ppe_dev_traffic;

extern ppe_dev_traffic ppe_dev_traffic_count;

typedef struct {
  const char *name; /* "host", "cuda", "hip" or "emu" */
  /* runtime */
  int (*count)(int *ndev);
  int (*device_name)(int dev, char *name, size_t len);
  int (*select)(int dev);
  const char *(*errstr)(int err);
  int (*alloc)(void **p, size_t bytes);
  int (*release)(void *p);
  int (*copy)(void *dst, const void *src, size_t bytes, ppe_dev_copy_kind kind, void *stream);
  int (*stream_create)(void **stream);
  int (*stream_destroy)(void *stream);
  int (*sync)(void *stream);
  /* stencil (src/kernels/stencil7.h, chebyci.h): y = A x on the points of phase, or with
     ci != NULL (host struct of device pointers) the fused Chebyshev step into ci->w */
  int (*stencil)(const ppe_dev_box *B, const double *x, const ppe_dev_halo *H, double *y, int phase, const ppe_dev_ci *ci, void *stream);
  /* dot products (krylov.h): s[q] = y . u[q], q < nd (nd = 1 or 2); s on the host */
  int (*dot)(long n, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream);
  /* *s = the sum of x[0..n), s on the host: the host adds in index order, a device in the
     order of its dot products (krylov.h ppe_sum_seg over chunks, then PPEDevReduce) */
  int (*sum)(long n, const double *x, double *work, double *s, void *stream);
  /* Chebyshev iteration (chebyci.h) */
  int (*ci_scale)(long n, const double *dinv, const double *bin, double *b, void *stream);
  int (*ci_first)(long n, double theta, double c1, const double *dinv, const double *b, const double *t, double *z, double *y, void *stream);
  int (*ci_step)(long n, double rho, double rho_old, double s2, double d2, const double *dinv, const double *b, const double *t, const double *y, const double *z, double *w, void *stream);
  /* Bi-CGSTAB (krylov.h); update_r returns rt'r and r'r in s (host) */
  int (*bcgs_axpy)(long n, double alpha, const double *w, double *r, void *stream);
  int (*bcgs_update_x)(long n, double alpha, double omega, const double *ph, const double *rh, double *x, void *stream);
  int (*bcgs_update_r)(long n, double omega, const double *t, const double *rt, double *r, double *work, double *s, void *stream);
  int (*bcgs_update_p)(long n, double beta, double omega, const double *r, const double *w, double *p, void *stream);
  /* batched tridiagonal kernel k (PPETdKernel: ppe_td_kernel) on the lanes of R, one thread
     per lane on a device; the fly kernels' scratch s, t, u holds the groups of one call */
  int (*tridiag)(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x, void *stream);
  /* groups of lanes one tridiag call takes at most, 0 for any number: the host solves blocks
     of PPE_TD_G groups that stay in its caches between the sweeps (and reuses their scratch),
     a device every group in one launch */
  int tridiag_groups;
  /* tile ILU (tileilu.h): xyz sweeps, one thread per tile; zyx sweeps of the packed values
     v of every group, one thread per lane; gather r -> v and scatter v -> z between box and
     zyx orders */
  int (*tileilu_xyz)(const ppe_dev_tiles *T, const double *F, const double *r, double *z, void *stream);
  int (*tileilu_zyx)(const ppe_dev_tiles *T, const double *F, double *v, void *stream);
  int (*tileilu_gather)(const ppe_dev_tiles *T, const double *r, double *v, void *stream);
  int (*tileilu_scatter)(const ppe_dev_tiles *T, const double *v, double *z, void *stream);
  /* the zyx apply fused (gather, sweeps and scatter of T->chunk groups at a time through v,
     which holds one chunk, while it is in cache), where a back end has it: the host; NULL on
     a device, whose three launches over every group are its fast way */
  int (*tileilu_fused)(const ppe_dev_tiles *T, const double *F, const double *r, double *v, double *z, void *stream);
  /* tall-skinny blocks (tsblock.h); x, y, q, aq, s: host arrays of device column pointers;
     out, B, coef: host. gram: out[a + nx b] = x_a . y_b where b >= a - band, else 0 */
  int (*ts_gram)(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *work, double *out, void *stream);
  int (*ts_combine)(long n, int k, const double *const *q, int m, double *const *s, const double *B, double *work, void *stream);
  int (*ts_axpy)(long n, int k, const double *const *q, const double *const *aq, const double *coef, double *x, double *r, void *stream);
  int (*ts_cheb)(long n, double c1, const double *az, double c2, const double *z, const double *zold, double *out, void *stream);
  /* box copy of the transposes (transpose.h): dst box = src box * scale + shift */
  int (*tp_copy)(const double *src, const double *scale, double shift, const long sarr[6], const long box[6], const long tarr[6], double *dst, void *stream);
  /* real transforms of PC fftptdma (fft.h): pre pass x -> z (F->lines * F->L complex values)
     and ends (2 per line), the library's forward complex DFT of the lines of z in place
     (plan made on that z), post pass z, ends -> y (y may be x) */
  int (*fft_pre)(const ppe_fft_lines *F, const double *x, double *z, double *ends, void *stream);
  int (*fft_plan)(long L, long lines, double *z, void **plan, void *stream);
  int (*fft_exec)(void *plan, double *z, void *stream);
  int (*fft_destroy)(void *plan);
  int (*fft_post)(const ppe_fft_lines *F, const double *z, const double *ends, double *y, void *stream);
  /* y = alpha x + beta y + gamma (krylov.h ppe_axpbyc; x may be NULL when alpha = 0): the
     vector operations of the device-resident iterations (copy, scale, shift, axpy, aypx) */
  int (*axpbyc)(long n, double alpha, const double *x, double beta, double *y, double gamma, void *stream);
  /* s[q] = y . u[q] over the box B, q < nd (nd = 1 or 2), s on the host: the dot products of
     a fused apply (PPEStencilMultDot), summed row by row as the host sums them */
  int (*stencil_dot)(const ppe_dev_box *B, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream);
  /* y = A x on the points of phase fused with the dot products s[q] = y . u[q], q < nd, where a
     back end has them in its sweep (the host: the row partials into rows, PPE_DEV_ROW_RED_WORK
     of the box's rows, while a row is in cache; their sum into s (host) at the surface phase, in
     stencil_dot's order); NULL on a device, which runs stencil, then stencil_dot */
  int (*stencil_rowdot)(const ppe_dev_box *B, const double *x, const ppe_dev_halo *H, double *y, int phase, int nd, const double *u0, const double *u1, double *rows, double *s, void *stream);
  /* several Chebyshev steps on the rank-local block in one wavefront while the planes are in
     cache (ppe_dev_ci_sweep), with the bits of the steps one by one, where a back end has it:
     the host, when z is not periodic and whole on the rank; NULL on a device (one launch per
     step; blocking in a GPU's shared memory is another kernel, not written) */
  int (*stencil_ci_sweep)(const ppe_dev_box *B, const ppe_dev_ci_sweep *S, void *stream);
} PPEBackendOps;

/* The tables of the back ends (defined where built: the host and the emulation always, CUDA
   and HIP when configured --with-cuda, --with-hip; PPEKIT_HAVE_CUDA/HIP in ppekitconf.h). */
extern const PPEBackendOps PPEBackendOps_Host;
extern const PPEBackendOps PPEBackendOps_Emu;
extern const PPEBackendOps PPEBackendOps_CUDA;
extern const PPEBackendOps PPEBackendOps_HIP;

#if defined(__cplusplus)
}
#endif

#endif
