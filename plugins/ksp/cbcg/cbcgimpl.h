/*
   Private header of KSPCBCG, shared by the type (cbcg.c: options, set-up, view, life cycle,
   public functions) and its iteration (cbcgsolve.c). The numerical core is in src/krylov.
*/
#pragma once

#include <petsc/private/kspimpl.h>
#include <ppekit/private/sstepimpl.h>

#define CBCG_MAX_RESTARTS 3 /* restarts from the true residual before giving up */
#define CBCG_COND_MAX_SINGLE 300 /* default Gram condition limit with one reduction per block */
#define CBCG_COND_MAX_TWO    1e4 /* and with two */
#define CBCG_RITZ_COND    1e12 /* largest equilibrated condition of the S'AS block the Ritz values are taken from */

typedef struct {
  PetscInt         s;              /* block size asked for (1..16) */
  PetscBool        eig_set;        /* interval given by the user */
  PetscReal        eig_given[2];   /* that interval: lmin, lmax */
  PetscInt         eig_its;        /* Lanczos steps of the estimate */
  PetscReal        safety;         /* factor on an estimated lmax */
  PetscInt         replace;        /* replace the residual by b - A x every this many blocks (0: never) */
  PetscReal        cond_max;       /* largest condition number of an equilibrated Gram matrix used (0: the default of the variant) */
  PetscBool        single;         /* one global reduction per block, else two (paper 004, Algorithm 2) ... */
  PetscBool        single_set;     /* ... as set; by default one for s >= 3, two for s <= 2 (see KSPCBCGSingle()) */
  KSPCBCGBasisType basis;          /* Chebyshev (default) or Newton with Ritz shifts */
  PetscReal        lmin, lmax;     /* interval the basis is built on */
  KSPCBCGEigSource source;         /* where it came from */
  PetscBool        exact;          /* grid: exact extremes (else bounds) */
  PPEEigEstimate   est;            /* the last Lanczos estimate */
  PetscBool        have_interval;  /* lmin, lmax valid for the operators below */
  PetscObjectId    matid, pmatid;  /* operators the interval belongs to */
  PetscObjectState matstate, pmatstate;
  PetscInt         nalloc;         /* columns allocated in each block */
  Vec             *V[3], *AV[3];   /* three blocks and their images, rotated: current, older, basis */
  KSPCBCGStats     stats;          /* the last solve */
} KSP_CBCG;

/* one reduction per block? As set, else for s >= 3: for s <= 2 the bound 2/s + 0.05 allows two
   reductions per block, and two compute the Gram matrix from the vectors (more accurate) */
static inline PetscBool KSPCBCGSingle(const KSP_CBCG *cb)
{
  return cb->single_set ? cb->single : (PetscBool)(cb->s >= 3);
}

/* the Gram condition limit in use: the one set, else the default of the variant */
static inline PetscReal KSPCBCGCondMax(const KSP_CBCG *cb)
{
  return cb->cond_max > 0 ? cb->cond_max : (KSPCBCGSingle(cb) ? CBCG_COND_MAX_SINGLE : CBCG_COND_MAX_TWO);
}

/* What one solve carries from its start to its end, shared by both iterations (cbcgsolve.c,
   cbcgsolve1.c) through KSPCBCGSolveBegin(), KSPCBCGTest(), KSPCBCGVerdict(), KSPCBCGAdvance()
   and KSPCBCGSolveEnd() */
typedef struct {
  Mat            A;           /* the operator */
  MatNullSpace   nsp;         /* its null space, or NULL */
  PetscBool      cnst;        /* the null space is the constants */
  PetscInt       N;           /* global size (for the mean of x when cnst) */
  PetscBool      x0null;      /* ksp->work[5] holds the null-space part of a nonzero initial guess */
  PetscBool      nullremoved; /* the constant was already removed, with the true residual check */
  PetscInt       nred;        /* global reductions of the method so far */
  PetscInt       tfails;      /* restarts so far (all causes share CBCG_MAX_RESTARTS) */
  PetscReal      lastrestart; /* true residual norm of the last restart after a false convergence */
  PetscLogDouble ct0;         /* PETSc's MPI_Allreduce count at the start */
} KSPCBCGRun;

/* What the iteration does after KSPCBCGTest() */
typedef enum {
  KSPCBCG_GO,      /* continue with this block */
  KSPCBCG_STOP,    /* ksp->reason is set: leave the iteration */
  KSPCBCG_RESTART  /* ksp->work[0] holds the true residual: start a fresh block from it, untested */
} KSPCBCGNext;

PETSC_INTERN PetscErrorCode KSPCBCGSolveBegin(KSP, KSPCBCGRun *);
PETSC_INTERN PetscErrorCode KSPCBCGTest(KSP, KSPCBCGRun *, PetscInt, PetscReal, PetscReal, PetscReal, PetscBool, KSPCBCGNext *);
PETSC_INTERN PetscErrorCode KSPCBCGVerdict(KSP, KSPCBCGRun *, PPEGramStatus, const PPEGramFactor *, PetscInt, PetscInt, PetscBool, KSPCBCGNext *);
PETSC_INTERN PetscErrorCode KSPCBCGAdvance(KSP, KSPCBCGRun *, PetscInt, const PPEGramFactor *, const PetscScalar[], Vec[], Vec[], PetscInt *, PetscBool *);
PETSC_INTERN PetscErrorCode KSPCBCGResidual(KSP, Mat, Vec);
PETSC_INTERN PetscErrorCode KSPCBCGSolveEnd(KSP, KSPCBCGRun *, PetscInt);
PETSC_INTERN PetscErrorCode KSPCBCGSetUpInterval(KSP);
PETSC_INTERN PetscErrorCode KSPCBCGAllocate(KSP);
PETSC_INTERN PetscErrorCode KSPSolve_CBCG(KSP);
PETSC_INTERN PetscErrorCode KSPSolve_CBCG_Single(KSP);
PETSC_INTERN PetscErrorCode KSPCBCGTrueResidualNorm(KSP, Mat, Vec, Vec, PetscReal *, PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCBCGReasonNotFinite(KSP);
