/*
   Private layout of PPETridiag and the entry points of its host back end.

   Arrays "per line" (coefficients, factors) are stored in the SZ-packed layout of the
   batch, [group][row][lane] (ng*m*SZ values, ng = ceil(nsys/SZ)): the kernels work on
   groups of SZ lines in both layouts of the data, and read them as contiguous streams;
   "per lane" arrays hold one value per line (ng*SZ values, the lanes past nsys unused);
   "shared" arrays one value per local row.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>
#include <ppekit/private/backendimpl.h>
#include <ppekit/tridiag.h>
#include <kernels/tridiag.h>

/* What a kernel call does (PPETdKernel) and its arrays (PPETdArgs): src/kernels/tridiag.h,
   run by every back end's table (PPE_TD_G: the groups of SZ lines the host solves in one
   call). */

/* Where the coefficients and factors of a kernel call live. */
typedef enum {
  PPE_TD_MODE_SHARED,  /* coefficients and factors shared by all lines */
  PPE_TD_MODE_FACTORS, /* coefficients shared, factors per line (per-line shift) */
  PPE_TD_MODE_LINE,    /* coefficients and factors per line */
  PPE_TD_MODE_NUM
} PPETdMode;

/* The owner's share of the reduced systems of the ptdma lines (rows 0..nr-1, nr = 2P). */
typedef struct {
  PetscInt     np;                        /* ptdma lines */
  PetscInt    *lines;                     /* their indices, ascending (identical on every rank) */
  PetscInt    *pos;                       /* nsys: position of a line in lines[], or -1 */
  PetscInt     lo, nown;                  /* positions [lo, lo+nown) are solved by this rank */
  PetscMPIInt *scnt, *sdsp, *rcnt, *rdsp; /* forward all-to-all (the reverse swaps them) */
  PetscInt     nr;                        /* rows of a reduced system */
  PetscReal   *L, *U;                     /* nr x nown couplings of the reduced rows, [row][line] */
  PetscReal   *ip, *q;                    /* nr x nown factors */
  PetscReal   *last;                      /* nown: 1/last pivot (or periodic sinv), 0 when pinned */
  PetscReal   *sbuf, *rbuf, *rhs;         /* 2*np, 2*P*nown, nr*nown */
} PPETdReduced;

/* The distd2 lines: 2x2 systems with the neighbours. */
typedef struct {
  PetscInt    nd;                    /* distd2 lines */
  PetscInt   *lines;                 /* their indices, ascending */
  PetscMPIInt prev, next;            /* neighbour ranks (MPI_PROC_NULL at a non-periodic end) */
  PetscReal  *k;                     /* 4 per line: x0 = k0 r0 + k1 r1(prev), x1 = k2 r1 + k3 r0(next) */
  PetscReal  *sb0, *sb1, *rb0, *rb1; /* nd each: r0 to prev, r1 to next, r1 of prev, r0 of next */
} PPETdDistD2;

/* The arrays of the batch in the memory of its back end, which its kernel calls read and
   write (src/tridiag/tdarrays.c): the host's own arrays, or their device copies; scratch
   tiles of scrgroups groups of SZ lines (the groups of one call). */
typedef struct {
  const PetscReal *a, *ex, *c, *w, *shift, *mask, *ip, *q, *al, *be, *last;
  PetscReal       *rb0, *rb1, *scr;
  PetscInt         scrgroups;
} PPETdArrays;

struct _p_PPETridiag {
  PETSCHEADER(int);
  /* sizes and layout */
  PetscInt    nsys;   /* lines */
  PetscInt    m;      /* rows of this rank */
  PetscInt    n;      /* global rows (set-up) */
  PetscInt    rstart; /* first global row of this rank (set-up) */
  PetscInt    ng;     /* groups of SZ lines */
  PetscInt    ls, ks; /* natural layout: element (s,k) at d[s*ls + k*ks] */
  PetscBool   ls_set; /* strides given by the user */
  PetscMPIInt rank, size;
  PetscBool   periodic;
  /* coefficients as given */
  PetscBool  coef_set;  /* a, b, c given */
  PetscBool  perline;   /* a, b, c per line (packed) */
  PetscReal *a, *b, *c; /* shared: m; per line: ng*m*SZ, packed */
  PetscReal *w;         /* m weights of the shift (ones when not given) */
  PetscReal *shift;     /* ng*SZ shifts (zeros when not given) */
  PetscBool  has_shift; /* a shift was given */
  PetscBool  has_w;     /* weights were given */
  PetscReal *mask;      /* ng*SZ: 0 for a pinned line, 1 otherwise */
  PetscInt   npinned;
  PetscInt  *pinned; /* the pinned lines, ascending */
  /* settings */
  PPETridiagMethod method;        /* requested */
  char             methodopt[64]; /* the option a user changes the method with, named in errors ("-ppe_tridiag_method"; an owner such as PC fftptdma names its own) */
  PetscBool        precompute;    /* store the per-line factors at set-up (Diez, Peeters and Costa (2025), Algorithm 2) */
  /* set-up */
  PetscBool            setupcalled;
  PPETridiagMethod     used;                     /* thomas, ptdma, distd2, or auto when the lines are mixed */
  PetscInt             nthomas, nptdma, ndistd2; /* lines per method */
  PPETdMode            mode;                     /* where the coefficients and factors live */
  PetscReal           *ex;                       /* excess of the diagonal, b + a + c summed exactly (shared or per line; ends of non-periodic lines without a, c) */
  PetscReal           *ip, *q, *al, *be;         /* factors, shared (m) or per line (packed); NULL when recomputed */
  PetscReal           *last;                     /* ng*SZ: thomas 1/p_{n-1}, periodic sinv (0 when pinned) */
  PetscReal           *ones;                     /* m ones: w when not given */
  PetscReal           *rb0, *rb1;                /* ng*SZ: boundary right-hand sides, then boundary unknowns (host: the exchange) */
  PPETdReduced         red;
  PPETdDistD2          d2;
  PPEBackend           backend;     /* where the kernels run */
  PetscBool            backend_set; /* given by PPETridiagSetBackend(); else -ppe_backend at set-up */
  const PPEBackendOps *bops;        /* the back end's table and stream (PPETridiagSetUpBackend()) */
  void                *bstream;
  PPETdArrays          arr;     /* the arrays in the back end's memory */
  Vec                  data[2]; /* host data of a solve as a vector (natural, packed spans), for PPEArraysGet() */
  /* counters (solves only) */
  PetscInt       nsolves;
  PetscLogDouble bytes, msgs; /* sent to other ranks so far */
  PetscLogDouble setup_bytes; /* sent to other ranks by the last set-up */
};

#define PPETridiagCheckSizes(t) PetscCheck((t)->nsys >= 0, PetscObjectComm((PetscObject)(t)), PETSC_ERR_ORDER, "Call PPETridiagSetSizes() first")

PETSC_INTERN PetscErrorCode PPETridiagSetUp_Private(PPETridiag);
PETSC_INTERN PetscErrorCode PPETridiagReset_Private(PPETridiag);

/* Set-up internals: src/tridiag/tdsetup.c (checks, coefficients, Thomas lines, driver) calls
   tdreduce.c (lines split over the ranks); both call tdfactor.c (one line at a time). */

/* Roundings per elimination allowed in a pivot before it counts as zero: one step of the
   excess-form recurrence rounds three times (two products, a difference), so 8 leaves a
   margin of more than two over what a nonsingular line can lose. */
#define PPE_TD_PIVOT_ULPS 8.0

/* Relative size under which a pivot is zero, for chains of n eliminations (the roundings add
   up along the chain). */
static inline PetscReal PPETdPivotTol(PetscInt n)
{
  return PPE_TD_PIVOT_ULPS * (PetscReal)(n + 1) * PETSC_MACHINE_EPSILON;
}

/* Element (s,k) of a coefficient: shared (m values) or per line (packed). */
static inline PetscReal PPETdCoef(const PPETridiag t, const PetscReal *v, PetscInt s, PetscInt k)
{
  return t->perline ? v[((size_t)(s / PPE_TRIDIAG_SZ) * t->m + k) * PPE_TRIDIAG_SZ + s % PPE_TRIDIAG_SZ] : v[k];
}

/* Whether coefficient j (0: a, 2: c) of local row k is ignored: the ends of non-periodic lines. */
static inline PetscBool PPETdIgnored(const PPETridiag t, int j, PetscInt k)
{
  if (t->periodic) return PETSC_FALSE;
  return (PetscBool)((j == 0 && k == 0 && t->rank == 0) || (j == 2 && k == t->m - 1 && t->rank == t->size - 1));
}

/* Result of factoring one line: the row of the first bad pivot (-1: none), the last pivot. */
typedef struct {
  PetscInt  badrow;
  PetscReal badp;
  PetscReal lastp, lastscale;
} PPETdFactorInfo;

PETSC_INTERN void           PPETdGetLine(const PPETridiag, PetscInt, PetscReal[], PetscReal[], PetscReal[]);
PETSC_INTERN void           PPETdFactorThomas(PetscInt, PetscBool, const PetscReal[], const PetscReal[], const PetscReal[], PetscReal, PetscReal[], PetscReal[], PPETdFactorInfo *);
PETSC_INTERN void           PPETdFactorReduce(PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], PetscReal, PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[6], PPETdFactorInfo *);
PETSC_INTERN void           PPETdCheckLast(PetscInt, PetscBool, const PPETdFactorInfo *, PetscReal, const char[], char[], size_t, PetscErrorCode *);
PETSC_INTERN void           PPETdStoreLine(PPETridiag, PetscInt, PetscReal *, const PetscReal[]);
PETSC_INTERN PetscErrorCode PPETdAllocFactor(PPETridiag, PetscReal **);
PETSC_INTERN PetscErrorCode PPETridiagSetUpReduction(PPETridiag);
PETSC_INTERN PetscErrorCode PPETridiagSolve_Private(PPETridiag, PetscScalar[], PetscBool);

/* Flops of one solve, for the log: per row, 5 (Thomas), 8 (periodic Thomas: the second
   sweep of Sherman-Morrison) or 10 (local reduction and reconstruction). */
static inline PetscLogDouble PPETdSolveFlops(const PPETridiag t)
{
  return (t->used == PPE_TRIDIAG_THOMAS ? (t->periodic ? 8.0 : 5.0) : 10.0) * t->nsys * t->m;
}

PETSC_INTERN PetscErrorCode PPETridiagSetUpBackend(PPETridiag);
PETSC_INTERN PetscErrorCode PPETridiagResetBackend(PPETridiag);
PETSC_INTERN void           PPETridiagBlockArgs(const PPETridiag, PetscScalar *, PetscBool, PetscInt, PPETdArgs *);
PETSC_INTERN PetscErrorCode PPETridiagExchange(PPETridiag);
PETSC_INTERN PetscErrorCode PPETridiagSolveResident(PPETridiag, PetscScalar[]);

/* Log events (src/sys/ppeinit.c). */
PETSC_EXTERN PetscErrorCode PPETridiagSetMethodOptionName(PPETridiag, const char[]);
PETSC_EXTERN PetscLogEvent  PPE_TridiagSetUp, PPE_TridiagSolve, PPE_TridiagLocal, PPE_TridiagComm, PPE_TridiagRSys, PPE_TridiagRecon, PPE_TridiagPack;
