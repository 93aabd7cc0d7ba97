/*
   Private layout of the FFT + tridiagonal pressure solver (PC fftptdma): 1D real transforms
   per direction (src/fft/fft1d.c), grouped pencil transposes (src/transpose/transpose.c)
   and the solver on pencils (src/fft/fftptdma.c, src/fft/fftsetup.c, src/fft/fftoptions.c).
   The numerics have their own settings (PPEFFTZSolve, PPEFFTPlanner, PPEFFTDCT) and can be
   used without PC fftptdma, which maps its options onto them and names its options in the
   errors through PPEFFTPTDMASetOptionName().

   Index boxes are six integers {lo0, lo1, lo2, n0, n1, n2} in the coordinates of the
   separable operator's box (0 <= lo < n of PPESeparable); arrays holding a box are stored
   with index 0 fastest.
*/
#pragma once

#include <fftw3.h>
#include <ppekit/private/separableimpl.h>
#include <ppekit/private/backendimpl.h>
#include <ppekit/private/fastdct.h>

/* One real transform pair along a direction: forward diagonalises K (docs/conventions.md),
   backward(forward(x)) = norm * x. */
typedef struct {
  fftw_r2r_kind fwd, bwd; /* FFTW kinds */
  PetscReal     norm;     /* backward o forward = norm * identity */
  const char   *name;     /* e.g. "DCT-II/DCT-III (REDFT10/REDFT01)" */
} PPEFFT1dKind;

PETSC_EXTERN PetscErrorCode PPEFFT1dGetKind(PPELocation, PPEBCType, PPEBCType, PetscInt, PPEFFT1dKind *);
PETSC_EXTERN PetscErrorCode PPEFFT1dEigenvalues(PPELocation, PPEBCType, PPEBCType, PetscInt, PetscReal, PetscReal[]);

/* A box of grid points: its first index and its number of points along x, y and z (in the
   coordinates of the solver's box of unknowns). A pencil, the part of an array that holds
   data, a block exchanged with a peer are boxes. */
typedef struct {
  PetscInt lo[3]; /* first index per direction */
  PetscInt n[3];  /* points per direction */
} PPEBox;

static inline PetscInt PPEBoxSize(const PPEBox *b)
{
  return b->n[0] * b->n[1] * b->n[2];
}

/* Exchange of the values of a distributed box between two layouts A and B over a group:
   each rank holds the data box adata[] of A (inside its array box aarr[]) and bdata[] of B
   (inside barr[]); Forward moves A -> B, Backward B -> A, with one MPI_Alltoallv (skipped
   when no rank of the group sends to another) and a local copy for what stays. */
typedef struct {
  MPI_Comm       comm;           /* the group (not owned) */
  PetscMPIInt    size, rank;     /* of the group */
  PPEBox         aarr;           /* array box of A on this rank */
  PPEBox         barr;           /* array box of B on this rank */
  PPEBox        *abox;           /* per peer: box this rank sends to the peer in Forward (my A data and its B data) */
  PPEBox        *bbox;           /* per peer: box this rank receives from the peer in Forward (its A data and my B data) */
  PetscMPIInt   *acnt, *adsp;    /* counts and offsets of the A-side buffer per peer */
  PetscMPIInt   *bcnt, *bdsp;    /* counts and offsets of the B-side buffer per peer */
  PetscScalar   *abuf, *bbuf;    /* packed buffers */
  PetscBool      comm_any;       /* some rank of the group sends to another */
  PetscLogDouble fbytes, bbytes; /* bytes this rank sends to other ranks per Forward / Backward */
  PetscLogDouble bytes;          /* cumulative bytes sent to other ranks */
  PetscLogEvent  event;          /* log event of the exchange */
} PPETranspose;

PETSC_EXTERN PetscErrorCode PPETransposeCreate(MPI_Comm, const PPEBox *, const PPEBox *, const PPEBox *, const PPEBox *, PetscLogEvent, PPETranspose *);
PETSC_EXTERN PetscErrorCode PPETransposeForward(PPETranspose *, const PetscScalar[], PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETransposeBackward(PPETranspose *, const PetscScalar[], PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETransposeForwardScaled(PPETranspose *, const PetscScalar[], const PetscScalar[], PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETransposeBackwardShifted(PPETranspose *, const PetscScalar[], PetscScalar, PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETransposeReset(PPETranspose *);
PETSC_EXTERN PetscErrorCode PPETransposeDevice(PPETranspose *, PetscBool, const PPEBackendOps *, void *, double *, double *, const PetscScalar[], const PetscScalar[], PetscScalar, PetscScalar[]);
PETSC_EXTERN PetscInt       PPETransposeScratchSize(const PPETranspose *);
PETSC_EXTERN void           PPEBoxIntersect(const PPEBox *, const PPEBox *, PPEBox *);
PETSC_EXTERN void           PPEBlockSplit(PetscInt, PetscInt, PetscInt, PetscInt *, PetscInt *);

/* A batch of FFTW transforms applied plane by plane: a plan of one z plane (planned with the
   planner's effort on one plane only, so planning costs a plane, not the whole pencil) run
   with fftw_execute_* on every plane. Planes whose start is 8 bytes off the first plane's
   (an odd plane stride in doubles) take a second plan of that alignment: FFTW's SIMD
   codelets need the alignment a plan was made for. */
typedef enum {
  PPE_FFT_BATCH_R2R, /* real-to-real kinds */
  PPE_FFT_BATCH_R2C, /* real to complex half spectrum */
  PPE_FFT_BATCH_C2R, /* complex half spectrum to real (destroys its input) */
  PPE_FFT_BATCH_DFT  /* complex to complex */
} PPEFFTBatchType;

typedef struct {
  PPEFFTBatchType type;
  fftw_plan       p[2];    /* planes of even index; planes of odd index when a plane stride is odd (else NULL) */
  PetscInt        nplanes; /* planes per execution */
  ptrdiff_t       is, os;  /* plane strides of the input and the output, in doubles */
} PPEFFTBatch;

PETSC_EXTERN PetscErrorCode PPEFFTBatchCreate(PPEFFTBatch *, PPEFFTBatchType, int, int, const fftw_iodim64[], int, const fftw_iodim64[], const fftw_r2r_kind[], PetscInt, ptrdiff_t, ptrdiff_t, double *, double *, unsigned);
PETSC_EXTERN void           PPEFFTBatchExecute(const PPEFFTBatch *, const double *, double *);
PETSC_EXTERN void           PPEFFTBatchDestroy(PPEFFTBatch *);

#define PPE_FFTPTDMA_KEY 33 /* entries of the layout key */

/* How the z lines are solved (string table PPEFFTZSolves, src/fft/fftoptions.c). */
typedef enum {
  PPE_FFT_ZSOLVE_PTDMA,     /* in place on the y-pencils across the z group: P-TDMA */
  PPE_FFT_ZSOLVE_TRANSPOSE, /* transpose to z-pencils, local Thomas, transpose back */
  PPE_FFT_ZSOLVE_DISTD2,    /* in place, DistD2 (refused for lines where it is not exact) */
  PPE_FFT_ZSOLVE_AUTO       /* in place: Thomas when pz = 1, else DistD2 where exact, P-TDMA for the rest */
} PPEFFTZSolve;
PETSC_EXTERN const char *const PPEFFTZSolves[];

/* FFTW planner effort at set-up (string table PPEFFTPlanners). */
typedef enum {
  PPE_FFT_PLANNER_ESTIMATE, /* FFTW_ESTIMATE */
  PPE_FFT_PLANNER_MEASURE,  /* FFTW_MEASURE */
  PPE_FFT_PLANNER_PATIENT,  /* FFTW_PATIENT */
  PPE_FFT_PLANNER_AUTO      /* FFTW_MEASURE under a time limit on the plans the solves run, FFTW_ESTIMATE on the others */
} PPEFFTPlanner;
PETSC_EXTERN const char *const PPEFFTPlanners[];

/* DCT/DST kinds of Neumann and Dirichlet directions (string table PPEFFTDCTs). */
typedef enum {
  PPE_FFT_DCT_AUTO, /* FFTW's and the fast ones timed at set-up, the faster kept */
  PPE_FFT_DCT_FFTW, /* FFTW's r2r kinds */
  PPE_FFT_DCT_FAST  /* reorder + r2c/c2r + twiddle (src/fft/fastdct.c) where the kind allows */
} PPEFFTDCT;
PETSC_EXTERN const char *const PPEFFTDCTs[];

/* The settings an owner lets its users change, by the name its users know them by (an option
   name), given in the errors and the view: PPEFFTPTDMASetOptionName(). Without a name, the
   argument of PPEFFTPTDMASetUp() is named ("zsolve", "pgrid", "wisdom", "dct"). */
/* The name that begins the solver's errors when its owner gives none (PPEFFTPTDMASetName()). */
#define PPE_FFT_DEFAULT_NAME "PPEFFTPTDMA"

typedef enum {
  PPE_FFT_OPTION_ZSOLVE,
  PPE_FFT_OPTION_PGRID,
  PPE_FFT_OPTION_WISDOM,
  PPE_FFT_OPTION_DCT,
  PPE_FFT_OPTION_NUM
} PPEFFTOption;

/* The solver on pencils. Rank r of the communicator is (r1, r2) = (r % P1, r / P1) of the
   pencil grid P1 x P2: x-pencils {all x} x {block r1 of y} x {block r2 of z}, y-pencils
   {block r1 of x} x {all y} x {block r2 of z}, z-pencils {block r1 of x} x {block r2 of y}
   x {all z}. */
typedef struct _n_PPEFFTPTDMA {
  MPI_Comm       comm; /* the PC's communicator (not owned) */
  PetscMPIInt    size, rank;
  PetscInt       P[2];                                           /* pencil grid: P1 (y split of x-pencils, x split of y-pencils), P2 (z split) */
  PetscInt       r[2];                                           /* this rank's position in the pencil grid */
  PetscBool      pauto;                                          /* the pencil grid was chosen automatically */
  MPI_Comm       xycomm;                                         /* the P1 ranks with this r2 (x <-> y transposes) */
  MPI_Comm       zcomm;                                          /* the P2 ranks with this r1, ordered by r2 (z solve, y <-> z transposes) */
  PetscInt       N[3];                                           /* box sizes */
  PetscBool      flat;                                           /* a 2D problem: one point along y (N[1] = 1, the middle direction of a 2D grid's nx x 1 x ny
                                  shadow); its transform is the identity (no plan), its eigenvalue 0, py = 1, and the z
                                  pencils split x instead of y */
  PPEBox         xbox, ybox, zbox;                               /* this rank's pencils (array boxes, in spectral slots along x once x is
                                         transformed by r2c: the x-pencil's data box is xdata) */
  PPEBox         xdata;                                          /* the real data box of the x-pencil (xbox without the r2c padding) */
  PPEBox         sbox;                                           /* spectral y-pencil (the z solve's array): ybox, or after the y r2c (cplx[1]) {2 x0, 0, z0,
                                  2 nx, ny/2 + 1, nz} */
  PPEBox         dabox;                                          /* this rank's DMDA array box in box coordinates */
  PetscBool      daaligned;                                      /* x-pencils are the DMDA's own boxes (no data moves between them) */
  PPETranspose   tda;                                            /* DMDA <-> x-pencils */
  PPETranspose   txy;                                            /* x-pencils <-> y-pencils (skipped when P1 = 1) */
  PPETranspose   tyz;                                            /* y-pencils <-> z-pencils (zsolve transpose, skipped when P2 = 1) */
  PetscScalar   *xbuf, *ybuf, *sbuf, *zbuf;                      /* pencil arrays (ybuf = xbuf when P1 = 1, sbuf = ybuf unless cplx[1],
                                                  zbuf = sbuf unless the transpose z method with P2 > 1) */
  PPEFFT1dKind   kind[2];                                        /* transforms along x and y (the BC pair's kinds; periodic: R2HC/HC2R, or r2c/c2r below) */
  PetscBool      r2c;                                            /* asked for: periodic directions through r2c/c2r (host only) */
  PetscBool      cplx[2];                                        /* x: r2c/c2r in place on the x-pencils (padded to 2 (nx/2 + 1) values per line), the y
                                  transform then on its real and imaginary parts (r2r kind, or a complex DFT when y is
                                  periodic too: ydft); y (x not periodic): r2c from the y-pencils to the spectral pencils */
  PetscBool      ydft;                                           /* cplx[0] and y periodic: complex DFT along y of the half spectrum of x */
  PetscBool      plan2d;                                         /* x and y in one 2D plan per plane (the x-pencils hold whole x-y planes: py = 1) */
  PetscInt       Ns[2];                                          /* spectral sizes of x and y in doubles of a line: x 2 (nx/2 + 1) (cplx[0]) or 2 nx (cplx[1]) */
  PPEFFTBatch    fx[2];                                          /* x (or x and y: plan2d) forward and backward, in place on xbuf */
  PPEFFTBatch    fy[2];                                          /* y forward ybuf -> sbuf, backward sbuf -> ybuf (unused with plan2d) */
  PPEFFTBatch    fxd[2];                                         /* x (or x and y) forward from a Vec array to xbuf and backward from xbuf to a Vec array
                                  (daaligned only; else no plans) */
  int            xalign;                                         /* fftw_alignment_of() of the array fxd was planned with: Vec arrays must match */
  PPEFFTDCT      dct;                                            /* asked for: FFTW's DCT/DST kinds, the fast ones, or the faster of both (auto) */
  PetscBool      fast[2];                                        /* direction d runs the fast DCT/DST (fr[d]) instead of FFTW's kind */
  PPEFastR2R     fr[2][2];                                       /* fast DCT/DST of x (on the x-pencil layout) and y, forward and backward */
  PetscLogDouble dct_s[2];                                       /* auto: forward transforms timed at set-up, FFTW's and the fast ones (0: not timed) */
  PetscLogDouble plan_s;                                         /* seconds spent planning the transforms (this rank) */
  PPEFFTPlanner  planned;                                        /* the planner effort used (auto resolved) */
  PetscInt       wisdom[2];                                      /* wisdom file: imported (1) or not found (0) at set-up, -1 without a file; exported (1) */
  char           wisdomfile[PETSC_MAX_PATH_LEN];                 /* FFTW wisdom file ("" for none) */
  PetscBool      specmean;                                       /* singular: the mean is removed on the (kx,ky) = (0,0) z line after the z solve (the x and y
                                  backward transforms of every other mode sum to zero); else in the copy back */
  PetscBool      specproj;                                       /* singular and symmetric (left null vector = constant): b's mean is removed on the (0,0) z line
                                  before the z solve as well, so that the PC applies the pseudo-inverse A^+ */
  PPEFFTPlanner  planner;                                        /* FFTW planner effort */
  PPEFFTZSolve   zsolve;                                         /* z method asked for */
  PPETridiag     td;                                             /* z lines: in place on y-pencils (zcomm) or on z-pencils (self) */
  PetscReal     *lam[2];                                         /* eigenvalues of Lx and Ly per spectral slot (Ns[0], Ns[1] of them) */
  PetscReal      scale;                                          /* norm_x * norm_y, folded into the z coefficients */
  PetscBool      singular;                                       /* zero mode pinned and the mean removed */
  PetscBool      box;                                            /* the box is smaller than the DMDA (identity rows outside) */
  Vec            work;                                           /* right-hand side of the box (coupling to outside moved, row scale divided) */
  Vec            xout;                                           /* b/idiag outside the box, 0 inside */
  Vec            rinv;                                           /* 1/rowscale when it is divided out in the copy to the x-pencils (it varies in x or y), or NULL */
  PetscReal     *wz;                                             /* N[2] row scales of a row scale that depends on z only, folded into the z systems; or NULL */
  PetscInt       direct[2];                                      /* applications whose forward / backward x transforms read b's / wrote x's array directly */
  PetscInt       solves;                                         /* applications so far */
  PetscLogDouble zbytes0;                                        /* tridiag bytes at set-up end */
  PetscInt       key[PPE_FFTPTDMA_KEY];                          /* what the layout was built for (fftsetup.c, LayoutKey) */
  PetscInt       relayouts;                                      /* set-ups since the layout was built that kept it (pencils, transposes, plans) */
  PPEBackend     backend;                                        /* where the transforms and the z solve run (-ppe_backend, taken by the z batch) */
  PetscBool      fftw;                                           /* the transforms are FFTW's plans (a back end whose table has no batched transforms: the
                                  host); else the table's pre pass, complex DFT and post pass (src/fft/fftdevice.c) */
  PetscErrorCode (*pipeline)(struct _n_PPEFFTPTDMA *, Vec, Vec); /* the application's transforms, transposes and z solve on
                                                    rhs and x: PPEFFTPTDMAApplyFFTW or PPEFFTPTDMAApplyDevice, chosen at set-up */
  struct _n_PPEFFTDev *dev;                                      /* device data (src/fft/fftdevice.c), made at set-up (NULL on the host) */
  char                 optname[PPE_FFT_OPTION_NUM][64];          /* names of the settings in errors and the view ("": the argument's);
                                                        kept by PPEFFTPTDMAReset() */
  char                 name[64];                                 /* the solver's name that begins its errors ("": PPE_FFT_DEFAULT_NAME), kept by PPEFFTPTDMAReset() */
} PPEFFTPTDMA;

PETSC_EXTERN PetscErrorCode PPEFFTPTDMASetUp(PPEFFTPTDMA *, MPI_Comm, DM, const PPESeparable *, const PetscInt[2], PPEFFTZSolve, PPEFFTPlanner, PetscBool, PPEFFTDCT, const char[]);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMAApply(PPEFFTPTDMA *, const PPESeparable *, Mat, Vec, Vec);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMAApplyScaled(PPEFFTPTDMA *, const PPESeparable *, Mat, PetscReal, Vec, Vec, Vec);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMAReset(PPEFFTPTDMA *);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMAView(PPEFFTPTDMA *, PetscViewer);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMAGetCommCounts(PPEFFTPTDMA *, PetscLogDouble[3], PetscLogDouble[3]);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMACheckDM(const char[], DM, const char[]);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMASetOptionName(PPEFFTPTDMA *, PPEFFTOption, const char[]);
PETSC_INTERN const char    *PPEFFTPTDMAOptionName(const PPEFFTPTDMA *, PPEFFTOption);
PETSC_EXTERN PetscErrorCode PPEFFTPTDMASetName(PPEFFTPTDMA *, const char[]);
PETSC_INTERN const char    *PPEFFTPTDMAName(const PPEFFTPTDMA *);
PETSC_INTERN PetscErrorCode PPEFFTPTDMASetUpDevice(PPEFFTPTDMA *);
/* the FFTW plans of the pencils, the wisdom file and the fast DCT/DST choice (fftplans.c) */
PETSC_INTERN PetscErrorCode PPEFFTPTDMACreatePlans(PPEFFTPTDMA *);
PETSC_INTERN PetscErrorCode PPEFFTPTDMADestroyFast(PPEFFTPTDMA *);
PETSC_INTERN PetscErrorCode PPEFFTPTDMAApplyDevice(PPEFFTPTDMA *, Vec, Vec);
PETSC_INTERN PetscErrorCode PPEFFTPTDMAApplyFFTW(PPEFFTPTDMA *, Vec, Vec);
PETSC_INTERN PetscErrorCode PPEFFTPTDMADeviceDestroy(PPEFFTPTDMA *);
