/*
   ppe-solve: what its two files share, the run's state (ppe-solve.c: the steps of a run) and
   its JSON output (ppe-solve-json.c: the -ppe_json and -ppe_config lines).
*/
#pragma once

#include <ppekit.h>
#include <petscksp.h>

typedef enum {
  OP_MATFREE,
  OP_AIJ
} OperatorType;

typedef enum {
  PMAT_SAME,
  PMAT_MATFREE,
  PMAT_AIJ
} PmatType;

typedef enum {
  STOP_KSP,
  STOP_TRUE
} StopType;

typedef enum {
  VECTORS_HOST,
  VECTORS_BACKEND
} VectorsType;

typedef struct {
  PPEProblemType problem;
  OperatorType   op;
  PmatType       pmat;
  char           asmtype[64];
  PetscInt       repeat;
  StopType       stop;
  VectorsType    vectors; /* -ppe_vectors */
  PetscBool      json, history, config;
  PetscBool      move; /* -ppe_bubbles_move */
  PetscReal      rtol;
} Options;

/*
   Iterations inside the preconditioner: the KSPs of PCKSP and PCBJACOBI (counted by a monitor,
   the maximum over ranks for the sub-solves of block Jacobi), or PCCHEBYCI's fixed iterations
   times its applications. valid is false for other preconditioners.
*/
typedef struct {
  PC        pc;
  PetscBool valid, cheby;
  PetscInt  its, applied0, cheby_its;
} InnerIts;

/*
   The history of the untimed solve of -ppe_history: at each monitor call the iteration (s-step
   methods such as cbcg monitor once per block), the true relative residual, and the seconds
   since the solve started less the monitor's own time (its true residual costs an operator
   application).
*/
typedef struct {
  PetscBool      on;
  PetscInt       n, cap, *its;
  PetscReal     *tr, *ts;
  PetscReal      bnorm;
  PetscLogDouble t0, over;
  Vec            t, v;
} History;

/*
   -ppe_stop true: stop when the true relative residual ||b - A x|| / ||b|| is at most rtol (or
   ||b - A x|| at most abstol), whatever norm the KSP iterates with, so that "iterations" means
   the same for every KSP and PC. A KSP that supports the unpreconditioned norm (native) uses it,
   and its test is confirmed by one true residual; for the others the true residual is evaluated
   when the KSP's norm, times the last observed ratio of the true residual to it, reaches the
   tolerance (a few evaluations per solve; at every test with -ksp_norm_type none). x0 = 0 (as
   ppe-solve solves), so the initial true residual is ||b|| without an evaluation.
*/
typedef struct {
  Vec         t, v;   /* work of KSPBuildResidual */
  PetscReal   bnorm;  /* ||b|| of the solve */
  PetscBool   native; /* the KSP's norm is the unpreconditioned residual */
  PetscReal   ratio;  /* last true residual over the KSP's norm */
  PetscInt    checks; /* true residuals evaluated in this solve */
  const char *norm;   /* the norm compared with rtol, as reported */
} TrueStop;

/* The times of a run */
typedef struct {
  PetscReal  op_s, setup_s;    /* operator creation, KSPSetUp: seconds, max over ranks */
  PetscReal  latency_s;        /* one synchronisation on these ranks */
  PetscReal *solve_s, *wait_s; /* each timed solve: seconds (max over ranks), blocked in MPI (min over ranks) */
  PetscInt  *order, *its;      /* the timed solves from fastest to slowest; the iterations of each */
  PetscReal  solve_min, solve_med, solve_max;
  PetscReal  sync_s;             /* blocked in MPI during the median solve */
  PetscReal *coef_s, *step_s;    /* variable density moved between solves: new coefficients (and assembly), and those plus KSPSetUp, per solve (0 for the first) */
  PetscReal  coef_med, step_med; /* their medians over the solves after the first (-1 when the density does not move) */
} Timings;

/* What the last timed solve gave */
typedef struct {
  PetscInt           its, checks; /* iterations and true residuals evaluated (-ppe_stop true) of the last timed solve */
  KSPConvergedReason reason;
  PPECounters        local, c;   /* counters of the last timed solve: this rank's; max (reductions, halo exchanges) or sum over ranks (bytes) */
  PetscReal          rtol, rrel; /* the KSP's relative tolerance; true relative residual */
  PetscReal          emax, el2;  /* errors against the exact solution (when known) */
  PetscReal          mem_mb;     /* peak memory, max over ranks */
  PPEBackend         backend;
} Results;

/* What the steps of main share: the options, the problem, the solver and what was measured */
typedef struct {
  MPI_Comm      comm;
  PetscMPIInt   size;
  Options       o;
  PetscLogStage stage_setup, stage_solve;
  PPEGrid       grid;
  DM            da;
  PetscBool     singular, known; /* the operator is singular; the exact solution is known */
  Mat           A, P;
  PetscBool     var;     /* the problem has a density (variable coefficients) */
  PetscBool     move;    /* and it moves between the timed solves (-ppe_bubbles_move) */
  Vec           rho;     /* the density of the current step */
  Mat           Av;      /* a matrix-free operator with the density, the source of assembled twins (or NULL) */
  PetscBool     bubbles; /* the problem is bubbles; then bub holds its settings */
  PPEBubbles    bub;
  Vec           x, b, r, uex, bk; /* solution, right-hand side, residual, exact solution, b of a timed solve */
  PetscReal     bnorm, rhs_mean;  /* ||b||; the mean removed from b (singular problems) */
  KSP           ksp;
  PC            pc;
  TrueStop      stop;
  History       hist;
  InnerIts      inner;
  Timings       t;
  Results       res;
} Run;

/* The grid as the user gave it: per direction its size, its process count and two BC letters */
typedef struct {
  PetscInt       dim, n[3], procs[3];
  char           bc[7];
  PPELocation    loc;
  PPEStretchType stretch;
  PetscReal      shift;
} GridInfo;

extern const char *const OperatorTypes[], *const PmatTypes[], *const StopTypes[], *const VectorsTypes[];

/* ppe-solve-json.c: -ppe_config's line (before the solve) and -ppe_json's line (after it) */
PetscErrorCode PrintConfig(MPI_Comm);
PetscErrorCode PrintJSON(const Run *, const GridInfo *);
