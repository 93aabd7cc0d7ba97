/*
   Private header of KSPCBCG. The files of the type:
     cbcg.c       the type: options, set-up, view, life cycle, the choice of the iteration
     cbcgapi.c    the public setters and getters (each dispatches to a method composed by cbcg.c)
     cbcgsetup.c  work vectors, blocks and the eigenvalue interval (set-up and the start of a solve)
     cbcgstep.c   the steps both iterations share: start, test, verdict, advance, end, block widths,
                  rotation of the block buffers, Newton shifts
     cbcgsolve2.c the iteration with two global reductions per block
     cbcgsolve1.c the iteration with one global reduction per block
   The numerical core is in src/krylov.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019.
*/
#pragma once

#include <petsc/private/kspimpl.h>
#include <ppekit/private/sstepimpl.h>
#include <ppekit/private/krylovimpl.h>

#define CBCG_MAX_RESTARTS 3 /* restarts from the true residual before giving up */
#define CBCG_COND_MAX_SINGLE \
  300                         /* default Gram condition limit with one reduction per block (the Schur complement loses
                                     digits: above a few hundred the channel problem loses CG's iteration count, docs/types/cbcg.md) */
#define CBCG_COND_MAX_TWO 1e4 /* and with two (the Gram matrix computed from the vectors keeps more digits) */
#define CBCG_RITZ_COND \
  1e12 /* largest equilibrated condition of the S'AS block the Ritz values are taken from: beyond
                                     it the small eigenproblem keeps fewer than 4 of the 16 digits of double precision */
#define CBCG_NWORK \
  7 /* work vectors: r, two for the basis recurrence, the true residual w and M^-1 w,
                                     the null-space part of x0, z = M^-1 r */

/* Defaults, read by KSPCreate_CBCG() and named by the manual pages (cbcg.c, cbcgapi.c). */
#define CBCG_DEFAULT_S \
  8                               /* block size: in the measurements of docs/types/cbcg.md larger blocks are cut back to fewer columns
                                     more and more often, and 8 keeps most of the saving in reductions at <= 1.04 times CG's iterations */
#define CBCG_DEFAULT_EIG_ITS 20   /* Lanczos steps: the largest Ritz value is within 0.3% of the largest eigenvalue for a uniformly spread spectrum (test t711) */
#define CBCG_MAX_EIG_ITS     1000 /* most Lanczos steps accepted: far more than an estimate of the extremes ever needs */
#define CBCG_DEFAULT_SAFETY  1.1  /* factor on the largest Ritz value, which approaches the largest eigenvalue from below */
#define CBCG_MAX_SAFETY      10   /* largest factor accepted: beyond it the basis is scaled to an interval far wider than the spectrum */

/* One global reduction per block by default from this block size on: for s <= 2 the bound
   2/s + CBCG_REDUCTION_SLACK on the reductions per iteration allows two, and two compute the
   Gram matrix from the vectors (more accurate) */
#define CBCG_SINGLE_MIN_S 3

/* The target on the global reductions per iteration is 2/s + CBCG_REDUCTION_SLACK: two per
   block of s iterations, plus a margin for the true residual check at convergence, the
   null-space projection and blocks cut to fewer columns. -ksp_view prints the bound. */
#define CBCG_REDUCTION_SLACK 0.05

/* A smallest Ritz value below -CBCG_RITZ_NEG_TOL times the largest is negative curvature, not
   rounding: the shifts are not used. The same test as the Gram analysis (PPE_GRAM_NEG_TOL). */
#define CBCG_RITZ_NEG_TOL PPE_GRAM_NEG_TOL

typedef struct {
  PetscInt         s;             /* block size asked for (1..PPE_CBCG_SMAX) */
  PetscBool        eig_set;       /* interval given by the user */
  PetscReal        eig_given[2];  /* that interval: lmin, lmax */
  PetscInt         eig_its;       /* Lanczos steps of the estimate */
  PetscReal        safety;        /* factor on an estimated lmax */
  PetscInt         replace;       /* replace the residual by b - A x every this many blocks (0: never) */
  PetscReal        cond_max;      /* largest condition number of an equilibrated Gram matrix used (0: the default of the variant) */
  PetscBool        single;        /* one global reduction per block, else two (Ali et al. (2019), Algorithm 2) ... */
  PetscBool        single_set;    /* ... as set; by default one for s >= CBCG_SINGLE_MIN_S (see KSPCBCGSingle()) */
  KSPCBCGBasisType basis;         /* Chebyshev (default) or Newton with Ritz shifts */
  PetscReal        lmin, lmax;    /* interval the basis is built on */
  KSPCBCGEigSource source;        /* where it came from */
  PetscBool        exact;         /* grid: exact extremes (else bounds) */
  PPEEigEstimate   est;           /* the last Lanczos estimate */
  PetscBool        have_interval; /* lmin, lmax valid for the operators below */
  PetscObjectId    matid, pmatid; /* operators the interval belongs to */
  PetscObjectState matstate, pmatstate;
  PetscInt         nalloc;       /* columns allocated in each block */
  Vec             *V[3], *AV[3]; /* three blocks and their images, rotated: current, older, basis */
  KSPCBCGStats     stats;        /* the last solve */
  PetscErrorCode (*solve)(KSP);  /* the iteration of the variant in use, chosen at set-up (and when s or the variant is set) */
  PPEKrylovVecs vecs;            /* the vectors of the iteration, on the back end where it runs (the blocks follow them) */
} KSP_CBCG;

/* one reduction per block? As set, else for s >= CBCG_SINGLE_MIN_S */
static inline PetscBool KSPCBCGSingle(const KSP_CBCG *cb)
{
  return cb->single_set ? cb->single : (PetscBool)(cb->s >= CBCG_SINGLE_MIN_S);
}

/* the Gram condition limit in use: the one set, else the default of the variant */
static inline PetscReal KSPCBCGCondMax(const KSP_CBCG *cb)
{
  return cb->cond_max > 0 ? cb->cond_max : (KSPCBCGSingle(cb) ? CBCG_COND_MAX_SINGLE : CBCG_COND_MAX_TWO);
}

/* the bound on the global reductions per iteration at block size s */
static inline PetscReal KSPCBCGReductionBound(PetscInt s)
{
  return 2.0 / s + CBCG_REDUCTION_SLACK;
}

/* (C' B)(i, j) = sum_q C(q, i) B(q, j) for nq x k blocks C, B (column-major, leading dimension nq) */
static inline PetscScalar KSPCBCGCtB(PetscInt nq, const PetscScalar C[], const PetscScalar B[], PetscInt i, PetscInt j)
{
  PetscScalar v = 0;
  for (PetscInt q = 0; q < nq; q++) v += C[q + nq * i] * B[q + nq * j];
  return v;
}

/* What one solve carries from its start to its end, shared by both iterations (cbcgsolve2.c,
   cbcgsolve1.c) through KSPCBCGSolveBegin(), KSPCBCGTest(), KSPCBCGVerdict(), KSPCBCGAdvance()
   and KSPCBCGSolveEnd() */
typedef struct {
  Mat            A;           /* the operator */
  MatNullSpace   nsp;         /* its null space, or NULL */
  PetscBool      cnst;        /* the null space is the constants */
  PetscInt       N;           /* global size (for the mean of x when cnst) */
  PetscBool      x0null;      /* work[5] holds the null-space part of a nonzero initial guess */
  PetscBool      nullremoved; /* the constant was already removed, with the true residual check */
  PetscInt       nred;        /* global reductions of the method so far */
  PetscInt       tfails;      /* restarts so far (all causes share CBCG_MAX_RESTARTS) */
  PetscReal      lastrestart; /* true residual norm of the last restart after a false convergence */
  PetscLogDouble ct0;         /* PETSc's MPI_Allreduce count at the start */
  PetscBool      fresh;       /* the next block is a (re)start: built from r alone, with no older block */
  PetscBool      skiptest;    /* r was tested just before a restart: the next KSPCBCGTest() skips the monitors and the test */
} KSPCBCGRun;

/* The three block buffers of a solve (cb->V[], cb->AV[]) and what they hold, for both
   iterations: KSPCBCGBlockWidth() sizes the next basis, KSPCBCGRotate() moves it in */
typedef struct {
  PetscInt      cur, old, bas; /* which of the three buffers holds Q_k, Q_{k-1}, the basis being built */
  PetscInt      k, ko;         /* columns of Q_k and of Q_{k-1} */
  PetscBool     curfirst;      /* Q_k is the first block of the (re)start: built without an older block */
  PetscBool     oldfirst;      /* Q_{k-1} was */
  PetscBool     haveold;       /* Q_{k-1} is kept: the next basis is conjugated against it too */
  PPEGramFactor f, fo;         /* factors of the Gram matrices of Q_k and Q_{k-1} */
} KSPCBCGBlocks;

/* What the iteration does after KSPCBCGTest() */
typedef enum {
  KSPCBCG_GO,     /* continue with this block */
  KSPCBCG_STOP,   /* ksp->reason is set: leave the iteration */
  KSPCBCG_RESTART /* work[0] holds the true residual: start a fresh block from it (run->fresh is set) */
} KSPCBCGNext;

/* cbcgsetup.c */
PETSC_INTERN PetscErrorCode KSPCBCGSetUpInterval(KSP);
PETSC_INTERN PetscErrorCode KSPCBCGAllocate(KSP);
PETSC_INTERN PetscErrorCode KSPCBCGFreeBlocks(KSP_CBCG *);
/* cbcgstep.c */
PETSC_INTERN PetscErrorCode KSPCBCGSolveBegin(KSP, KSPCBCGRun *);
PETSC_INTERN PetscErrorCode KSPCBCGTest(KSP, KSPCBCGRun *, PetscInt, PetscReal, PetscReal, PetscReal, KSPCBCGNext *);
PETSC_INTERN PetscErrorCode KSPCBCGVerdict(KSP, KSPCBCGRun *, PPEGramStatus, const PPEGramFactor *, PetscInt, PetscInt, PetscBool, KSPCBCGNext *);
PETSC_INTERN PetscErrorCode KSPCBCGAdvance(KSP, KSPCBCGRun *, PetscInt, const PPEGramFactor *, const PetscScalar[], Vec[], Vec[], PetscInt *, PetscBool *);
PETSC_INTERN PetscErrorCode KSPCBCGSolveEnd(KSP, KSPCBCGRun *, PetscInt);
PETSC_INTERN PetscErrorCode KSPCBCGBlockWidth(const KSPCBCGBlocks *, PetscInt, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode KSPCBCGRotate(KSPCBCGBlocks *, PetscBool, PetscBool, PetscInt, const PPEGramFactor *);
PETSC_INTERN PetscErrorCode KSPCBCGNewtonShifts(KSP, PetscInt, PetscReal[], PPEBasisRecurrence *, PetscBool *);
/* cbcgsolve2.c, cbcgsolve1.c: the two iterations */
PETSC_INTERN PetscErrorCode KSPSolve_CBCG_TwoReductions(KSP);
PETSC_INTERN PetscErrorCode KSPSolve_CBCG_OneReduction(KSP);
