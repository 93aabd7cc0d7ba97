/*
   ppe-bench -bench fft: the exact FFT + tridiagonal pressure solve (PC fftptdma, Diez,
   Peeters and Costa (2025), sec. 2.2) on the channel problem of ppe-solve (periodic x,y, Neumann walls, tanh-stretched
   z, cell-centred; any -ppe_grid_* option applies; -bench_fft_bcs gives other boundary
   conditions on the same grid and source, one problem per 6-letter code of P, N, D over
   xlo,xhi,ylo,yhi,zlo,zhi, default PPPPNN), against

   - floor:     the best FFTW does for the whole solve on the same data (1 rank, default on
                beside fftptdma; -bench_fft_floor): per z plane, 2D transforms planned with
                the flag of -bench_fft_fftw_flag (planning timed apart): x and y periodic, a
                2D r2c forward and c2r back; neither periodic, a 2D r2r plan of the kinds of
                each direction's BC pair (BareKinds), or its two 1D passes; one periodic, the r2c of that direction
                with the other's r2r kind on the real and imaginary parts, r2c first or the
                r2r on the real data first; each as one plan over all z planes or one plane's
                plan looped over the planes. Every such variant is planned and timed at
                set-up and the fastest kept (floor_kind; the runner-up is floor_alt_kind).
                Then one tridiagonal system per (kx,ky)
                line along z, the grid's z rows (PPESeparable, the description the PC uses:
                stretched z, row scale folded in) shifted by lambda_x + lambda_y
                (PPEGridEigenvalues1d), zero mode pinned; factorised at set-up (inverse pivots
                per line, FloorSetUpZ) and solved by one forward and one backward sweep over
                whole planes, unit stride across the plane. Its result is checked once
                against PCApply (floor_vs_pc_rel: max difference over max value, means
                removed on singular problems) and by its true residual (floor_rnorm_rel);
   - bare:      the FFTW transforms alone on the same data: the real-to-real (or
                real-to-halfcomplex) kinds of each direction's BC pair, x lines (contiguous)
                then y lines (stride nx), forward and back, planned here with the same FFTW
                flags (-bench_fft_fftw_flag); the floor of any FFT solver;
   - iterative: CG to a true relative residual -bench_fft_rtol (unpreconditioned norm, so
                that every solver stops at the same accuracy) with hypre BoomerAMG, hypre
                PFMG on a hyprestruct matrix, PETSc GAMG, and geometric multigrid (PCMG on
                the DMDA, piecewise-constant cell-centred transfers, Galerkin coarse
                operators) with PETSc's default smoother and with one SSOR sweep.

   Timing part (-bench_fft_time, default on 1 rank): for each BC code of -bench_fft_bcs and
   each size of -bench_fft_n, the set-up of every solver is timed separately; then the fftptdma solve (KSP
   preonly; PCApply() alone; KSPSolve() with the null space detached from the operator: with
   it attached, KSPSolve() also copies b and projects the null space out of it), the bare
   transforms and the floor alternate in -bench_reps repetitions after a warm-up, and each
   iterative solver alternates with fftptdma solves in -bench_fft_iter_reps repetitions (one
   iterative solver held in memory at a time). Best times are reported with the ratios that
   have acceptance bars: fftptdma / bare (bar <= 1.5) and fastest iterative / fftptdma (bar >= 10),
   and on the floor line PCApply / floor, KSPSolve with the null space / PCApply, KSPSolve /
   floor, and the fftptdma set-up in units of one PCApply (setup_solves).

   Bytes part (-bench_fft_bytes, default on more than 1 rank): for each pencil grid py,pz of
   -bench_fft_pgrids (default: every factorisation of the rank count) and both z methods
   (ptdma, transpose), the bytes sent per solve, read from PPEKit's counters (all ranks
   together), next to the communication model of Diez, Peeters and Costa (2025), sec. 2.2.3.

   One JSON line per measurement: "solve", "bare", "floor" (keys bcs, n, floor_kind, plan_s,
   fwd_s, z_s, bwd_s, floor_s, pcapply_s, ksp_s (null space detached), ksp_nullspace_s
   (attached: the same when the operator is not singular), ratio_pcapply_floor,
   ratio_ksp_nullspace_pcapply, ratio_ksp_floor, ratio_ksp_nullspace_floor, setup_s,
   setup_solves, floor_vs_pc_rel, floor_rnorm_rel, and bare_s when bare ran), "skipped",
   "summary", "bytes".

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025.
*/
#include "bench.h"
#include <ctype.h>
#include <fftw3.h>
#include <ppekit/private/separableimpl.h> /* the z coefficients of the floor: PPESeparableCreateFromGrid() */

/* Maximum over ranks of a time. */
static PetscErrorCode MaxTime(MPI_Comm comm, PetscReal *t)
{
  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds since t0, maximum over ranks. */
static PetscErrorCode Elapsed(MPI_Comm comm, PetscLogDouble t0, PetscReal *t)
{
  PetscLogDouble t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t1));
  *t = (PetscReal)(t1 - t0);
  PetscCall(MaxTime(comm, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------
   The bare transforms
   --------------------------------------------------------------------------------------- */

static const char *const FFTWFlags[]        = {"estimate", "measure", "patient", "FFTWFlag", "FFTW_FLAG_", NULL};
static const unsigned    fftw_flag_values[] = {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT};

/* The FFTW kinds that diagonalise the second difference of a BC pair (forward, backward),
   and a name. Periodic: the real DFT in FFTW's halfcomplex layout (same size as the data).
   Cell-centred unknowns (x_i = (i+1/2) h): DCT/DST-II forward, -III back for equal BCs,
   the -IV kinds (their own inverses) for mixed ones. Vertex-centred: Neumann-Neumann keeps
   both boundary nodes (DCT-I), Dirichlet-Dirichlet keeps the interior nodes (DST-I), mixed
   pairs keep the Neumann node (DCT/DST-III forward, -II back). */
static PetscErrorCode BareKinds(PPEGrid grid, PetscInt d, fftw_r2r_kind *fwd, fftw_r2r_kind *bwd, const char **name)
{
  PPEBCType   lo, hi;
  PPELocation loc;
  PetscBool   cell;

  PetscFunctionBegin;
  PetscCall(PPEGridGetBC(grid, (PPEFace)(2 * d), &lo));
  PetscCall(PPEGridGetBC(grid, (PPEFace)(2 * d + 1), &hi));
  PetscCall(PPEGridGetLocation(grid, &loc));
  cell = (PetscBool)(loc == PPE_LOCATION_CELL);
  if (lo == PPE_BC_PERIODIC) {
    *fwd  = FFTW_R2HC;
    *bwd  = FFTW_HC2R;
    *name = "R2HC/HC2R";
  } else if (lo == PPE_BC_NEUMANN && hi == PPE_BC_NEUMANN) {
    *fwd  = cell ? FFTW_REDFT10 : FFTW_REDFT00;
    *bwd  = cell ? FFTW_REDFT01 : FFTW_REDFT00;
    *name = cell ? "REDFT10/REDFT01" : "REDFT00/REDFT00";
  } else if (lo == PPE_BC_DIRICHLET && hi == PPE_BC_DIRICHLET) {
    *fwd  = cell ? FFTW_RODFT10 : FFTW_RODFT00;
    *bwd  = cell ? FFTW_RODFT01 : FFTW_RODFT00;
    *name = cell ? "RODFT10/RODFT01" : "RODFT00/RODFT00";
  } else if (lo == PPE_BC_NEUMANN) {
    *fwd  = cell ? FFTW_REDFT11 : FFTW_REDFT01;
    *bwd  = cell ? FFTW_REDFT11 : FFTW_REDFT10;
    *name = cell ? "REDFT11/REDFT11" : "REDFT01/REDFT10";
  } else {
    *fwd  = cell ? FFTW_RODFT11 : FFTW_RODFT01;
    *bwd  = cell ? FFTW_RODFT11 : FFTW_RODFT10;
    *name = cell ? "RODFT11/RODFT11" : "RODFT01/RODFT10";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  fftw_plan   plan[4]; /* forward x, forward y, backward y, backward x */
  double     *work;    /* the data, transformed in place */
  const char *kind[2]; /* kinds of x and y, for the output */
  PetscInt    n;       /* local number of values */
  PetscReal   plan_s;  /* planning time */
} Bare;

/* Plans in place on one rank's whole array (natural DMDA order, x fastest): x lines are
   contiguous (batch of ny*nz lines of stride 1, distance nx), y lines have stride nx
   (batch of nx lines of distance 1 in each of the nz planes of distance nx*ny). */
static PetscErrorCode BareCreate(PPEGrid grid, unsigned flags, Bare *b)
{
  PetscInt       N[3];
  fftw_r2r_kind  kf[2], kb[2];
  fftw_iodim64   dx, dy, hx, hy[2]; /* guru64: ptrdiff_t sizes, as PC fftptdma plans */
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  for (PetscInt d = 0; d < 2; d++) PetscCall(BareKinds(grid, d, &kf[d], &kb[d], &b->kind[d]));
  b->n    = N[0] * N[1] * N[2];
  b->work = fftw_alloc_real((size_t)b->n);
  PetscCheck(b->work, PETSC_COMM_SELF, PETSC_ERR_MEM, "fftw_alloc_real() failed for %" PetscInt_FMT " values", b->n);
  dx    = (fftw_iodim64){(ptrdiff_t)N[0], 1, 1};
  hx    = (fftw_iodim64){(ptrdiff_t)(N[1] * N[2]), (ptrdiff_t)N[0], (ptrdiff_t)N[0]};
  dy    = (fftw_iodim64){(ptrdiff_t)N[1], (ptrdiff_t)N[0], (ptrdiff_t)N[0]};
  hy[0] = (fftw_iodim64){(ptrdiff_t)N[0], 1, 1};
  hy[1] = (fftw_iodim64){(ptrdiff_t)N[2], (ptrdiff_t)(N[0] * N[1]), (ptrdiff_t)(N[0] * N[1])};
  PetscCall(PetscTime(&t0));
  b->plan[0] = fftw_plan_guru64_r2r(1, &dx, 1, &hx, b->work, b->work, &kf[0], flags);
  b->plan[1] = fftw_plan_guru64_r2r(1, &dy, 2, hy, b->work, b->work, &kf[1], flags);
  b->plan[2] = fftw_plan_guru64_r2r(1, &dy, 2, hy, b->work, b->work, &kb[1], flags);
  b->plan[3] = fftw_plan_guru64_r2r(1, &dx, 1, &hx, b->work, b->work, &kb[0], flags);
  PetscCall(Elapsed(PETSC_COMM_SELF, t0, &b->plan_s));
  for (int i = 0; i < 4; i++) PetscCheck(b->plan[i], PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan bare transform %d", i);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BareDestroy(Bare *b)
{
  PetscFunctionBegin;
  for (int i = 0; i < 4; i++)
    if (b->plan[i]) fftw_destroy_plan(b->plan[i]);
  if (b->work) fftw_free(b->work);
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The four transforms of the data of v, each timed (seconds in t[4], total in t[4]). */
static PetscErrorCode BareRun(Bare *b, Vec v, PetscReal t[5])
{
  const PetscScalar *a;
  PetscLogDouble     t0, t1;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(v, &a));
  PetscCall(PetscArraycpy(b->work, a, b->n));
  PetscCall(VecRestoreArrayRead(v, &a));
  t[4] = 0;
  for (int i = 0; i < 4; i++) {
    PetscCall(PetscTime(&t0));
    fftw_execute(b->plan[i]);
    PetscCall(PetscTime(&t1));
    t[i] = (PetscReal)(t1 - t0);
    t[4] += t[i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------
   The floor: the best FFTW can do for the whole FFT-Poisson solve on the same data
   --------------------------------------------------------------------------------------- */

/* Round trip factor of an unnormalised FFTW transform pair of n points along a direction:
   n for the real DFT (r2c/c2r), 2(n-1) for DCT-I, 2(n+1) for DST-I, 2n for the others. */
static double RoundTrip(PetscBool periodic, fftw_r2r_kind k, PetscInt n)
{
  if (periodic) return (double)n;
  if (k == FFTW_REDFT00) return 2.0 * (n - 1);
  if (k == FFTW_RODFT00) return 2.0 * (n + 1);
  return 2.0 * n;
}

/* One FFTW plan of the floor: r2c, c2r or r2r, on in -> out, executed once (a howmany
   loop over the z planes) or once per z plane (arrays advanced by din, dout doubles). */
typedef struct {
  fftw_plan p;
  char      type; /* 'f' r2c, 'b' c2r, 'r' r2r */
  double   *in, *out;
  ptrdiff_t din, dout;
} FloorStage;

/* The transforms of the floor: nf forward stages, then nf backward ones (s[nf..2nf-1]). */
typedef struct {
  FloorStage s[4];
  int        nf;
  PetscInt   nloop;     /* 1, or nz for a loop over the z planes */
  char       kind[160]; /* for the output */
} FloorTransforms;

typedef struct {
  FloorTransforms t;             /* the transforms kept (the fastest at set-up) */
  double         *in, *out;      /* the right-hand side (kept: every forward plan preserves it) and the result */
  double         *hat;           /* the transformed data: nz planes of m coefficients, complex (2 doubles) or real */
  double         *ip;            /* nz x m inverse pivots of the factorised z systems, scaled (see FloorSetUpZ) */
  double         *a, *c;         /* nz lower and upper z couplings of the scaled systems (z only) */
  PetscInt        N[3];          /* sizes */
  PetscInt        m, ncomp;      /* coefficients per plane, doubles per coefficient (2: complex, 1: real) */
  PetscInt        n0[2];         /* transformed sizes of x and y (nx/2+1 along a periodic direction) */
  PetscBool       mean00;        /* remove the mean of the (kx,ky) = (0,0) z line (singular, DC basis) */
  char            alt[160];      /* the runner-up of the transform variants tried, for the output */
  PetscReal       best_s, alt_s; /* best solves at set-up of the kept variant and the runner-up */
  PetscInt        nvariants;     /* transform variants planned and timed */
  PetscReal       plan_s;        /* planning time of every plan made */
} Floor;

static void FloorStageSet(FloorStage *st, fftw_plan p, char type, double *in, double *out, ptrdiff_t din, ptrdiff_t dout)
{
  st->p    = p;
  st->type = type;
  st->in   = in;
  st->out  = out;
  st->din  = din;
  st->dout = dout;
}

/* Plans of one variant on f's arrays. Data layout: x fastest, then y, then z planes; the
   transformed data keeps that order with the periodic sizes halved (n0). Cases:
   - x and y periodic: 2D r2c forward, c2r backward;
   - neither periodic: 2D r2r of the kinds of each direction's BC pair (order 0), or its two
     1D passes as the bare transforms make them (order 1);
   - one periodic direction p, q the other, order 0: r2c along p (in -> hat), then the
     r2r kind of q in place on hat, applied to real and imaginary parts (its vector loops
     run over re/im and the p wavenumbers, merged into one unit-stride loop when p = x);
     order 1: the r2r kind of q first (in -> out, out as scratch, unit-stride vector loop
     when q = y), then r2c along p (out -> hat). Backward in the reverse order.
   Each transform either covers all z planes in one plan (a howmany loop of nz, FFTW picks
   the loop order), or is planned for one plane and executed per plane (perplane: each
   plane's transforms stay in cache). Every plan is guru64 (ptrdiff_t sizes, as PC fftptdma
   plans). *ok is false when a per-plane variant would run on arrays of another alignment. */
static PetscErrorCode FloorPlan(Floor *f, PPEGrid grid, int order, PetscBool perplane, unsigned flags, FloorTransforms *t, PetscBool *ok)
{
  PetscInt     *N = f->N;
  PetscBool     per[2];
  fftw_r2r_kind kf[2], kb[2];
  const char   *kn[2];
  ptrdiff_t     s[2], sc[2], plane, planec, pr, pc; /* pr, pc: doubles per real and transformed plane */
  fftw_complex *hc   = (fftw_complex *)f->hat;
  int           hz   = perplane ? 0 : 1; /* the z loop in the plans, or none */
  const char   *loop = perplane ? "; planned per z plane, looped" : "; one plan over the z planes";

  PetscFunctionBegin;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  t->nloop = perplane ? f->N[2] : 1;
  for (PetscInt d = 0; d < 2; d++) {
    PPEBCType bc;
    PetscCall(PPEGridGetBC(grid, (PPEFace)(2 * d), &bc));
    per[d] = (PetscBool)(bc == PPE_BC_PERIODIC);
    PetscCall(BareKinds(grid, d, &kf[d], &kb[d], &kn[d]));
  }
  s[0]   = 1;
  s[1]   = (ptrdiff_t)N[0];
  sc[0]  = 1;
  sc[1]  = (ptrdiff_t)f->n0[0];
  plane  = (ptrdiff_t)(N[0] * N[1]);
  planec = (ptrdiff_t)(f->n0[0] * f->n0[1]);
  pr     = perplane ? plane : 0;
  pc     = perplane ? f->ncomp * planec : 0;
  *ok    = PETSC_TRUE;
  if (perplane) {
    int a = fftw_alignment_of(f->in), b = fftw_alignment_of(f->out), c = fftw_alignment_of(f->hat);
    for (PetscInt k = 1; k < N[2]; k++) *ok = (PetscBool)(*ok && fftw_alignment_of(f->in + k * pr) == a && fftw_alignment_of(f->out + k * pr) == b && fftw_alignment_of(f->hat + k * pc) == c);
    if (!*ok) PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (per[0] && per[1]) {
    fftw_iodim64 dr[2] =
      {
        {(ptrdiff_t)N[1], s[1], sc[1]},
        {(ptrdiff_t)N[0], 1,    1    }
    },
                 hr = {(ptrdiff_t)N[2], plane, planec};
    fftw_iodim64 dc[2] =
      {
        {(ptrdiff_t)N[1], sc[1], s[1]},
        {(ptrdiff_t)N[0], 1,     1   }
    },
                 hcb = {(ptrdiff_t)N[2], planec, plane};

    t->nf = 1;
    FloorStageSet(&t->s[0], fftw_plan_guru64_dft_r2c(2, dr, hz, &hr, f->in, hc, flags), 'f', f->in, f->hat, pr, pc);
    FloorStageSet(&t->s[1], fftw_plan_guru64_dft_c2r(2, dc, hz, &hcb, hc, f->out, flags), 'b', f->hat, f->out, pc, pr);
    PetscCall(PetscSNPrintf(t->kind, sizeof(t->kind), "2D r2c/c2r (x and y periodic)%s", loop));
  } else if (!per[0] && !per[1]) {
    fftw_iodim64 d[2] =
      {
        {(ptrdiff_t)N[1], s[1], s[1]},
        {(ptrdiff_t)N[0], 1,    1   }
    },
                 h      = {(ptrdiff_t)N[2], plane, plane};
    fftw_r2r_kind f2[2] = {kf[1], kf[0]}, b2[2] = {kb[1], kb[0]};

    /* order 1: the two 1D passes of the bare transforms (x lines contiguous, then y lines
       of stride nx in place, vector loop over x), in -> hat, and back hat -> out */
    fftw_iodim64 hx[2] =
      {
        {(ptrdiff_t)N[1], s[1],  s[1] },
        {(ptrdiff_t)N[2], plane, plane}
    },
                 hy[2] = {{(ptrdiff_t)N[0], 1, 1}, {(ptrdiff_t)N[2], plane, plane}};

    if (order == 0) {
      t->nf = 1;
      FloorStageSet(&t->s[0], fftw_plan_guru64_r2r(2, d, hz, &h, f->in, f->hat, f2, flags), 'r', f->in, f->hat, pr, pc);
      FloorStageSet(&t->s[1], fftw_plan_guru64_r2r(2, d, hz, &h, f->hat, f->out, b2, flags), 'r', f->hat, f->out, pc, pr);
      PetscCall(PetscSNPrintf(t->kind, sizeof(t->kind), "2D r2r: x %s, y %s%s", kn[0], kn[1], loop));
    } else {
      t->nf = 2;
      FloorStageSet(&t->s[0], fftw_plan_guru64_r2r(1, &d[1], 1 + hz, hx, f->in, f->hat, &kf[0], flags), 'r', f->in, f->hat, pr, pc);
      FloorStageSet(&t->s[1], fftw_plan_guru64_r2r(1, &d[0], 1 + hz, hy, f->hat, f->hat, &kf[1], flags), 'r', f->hat, f->hat, pc, pc);
      FloorStageSet(&t->s[2], fftw_plan_guru64_r2r(1, &d[0], 1 + hz, hy, f->hat, f->hat, &kb[1], flags), 'r', f->hat, f->hat, pc, pc);
      FloorStageSet(&t->s[3], fftw_plan_guru64_r2r(1, &d[1], 1 + hz, hx, f->hat, f->out, &kb[0], flags), 'r', f->hat, f->out, pc, pr);
      PetscCall(PetscSNPrintf(t->kind, sizeof(t->kind), "1D r2r passes: x %s (contiguous), then y %s (strided)%s", kn[0], kn[1], loop));
    }
  } else {
    int p = per[0] ? 0 : 1, q = 1 - p;
    /* r2c along p: real strides in, complex strides out; vector loops over q and z */
    fftw_iodim64 rp =
                   {
                     (ptrdiff_t)N[p], s[p], sc[p]
    },
                 rh[2] = {{(ptrdiff_t)N[q], s[q], sc[q]}, {(ptrdiff_t)N[2], plane, planec}};
    fftw_iodim64 cp =
                   {
                     (ptrdiff_t)N[p], sc[p], s[p]
    },
                 ch[2] = {{(ptrdiff_t)N[q], sc[q], s[q]}, {(ptrdiff_t)N[2], planec, plane}};
    /* r2r along q on the complex data as doubles: vector loops over re/im, the p wavenumbers, z */
    fftw_iodim64 qc =
                   {
                     (ptrdiff_t)N[q], 2 * sc[q], 2 * sc[q]
    },
                 qch[3] = {{2, 1, 1}, {(ptrdiff_t)f->n0[p], 2 * sc[p], 2 * sc[p]}, {(ptrdiff_t)N[2], 2 * planec, 2 * planec}};
    /* r2r along q on the real data: vector loops over p and z */
    fftw_iodim64 qr =
                   {
                     (ptrdiff_t)N[q], s[q], s[q]
    },
                 qrh[2] = {{(ptrdiff_t)N[p], s[p], s[p]}, {(ptrdiff_t)N[2], plane, plane}};

    t->nf = 2;
    if (order == 0) {
      FloorStageSet(&t->s[0], fftw_plan_guru64_dft_r2c(1, &rp, 1 + hz, rh, f->in, hc, flags), 'f', f->in, f->hat, pr, pc);
      FloorStageSet(&t->s[1], fftw_plan_guru64_r2r(1, &qc, 2 + hz, qch, f->hat, f->hat, &kf[q], flags), 'r', f->hat, f->hat, pc, pc);
      FloorStageSet(&t->s[2], fftw_plan_guru64_r2r(1, &qc, 2 + hz, qch, f->hat, f->hat, &kb[q], flags), 'r', f->hat, f->hat, pc, pc);
      FloorStageSet(&t->s[3], fftw_plan_guru64_dft_c2r(1, &cp, 1 + hz, ch, hc, f->out, flags), 'b', f->hat, f->out, pc, pr);
      PetscCall(PetscSNPrintf(t->kind, sizeof(t->kind), "%c r2c/c2r (%s lines), then %c %s on re and im (%s)%s", "xy"[p], p ? "strided" : "contiguous", "xy"[q], kn[q], q ? "strided" : "stride 2", loop));
    } else {
      FloorStageSet(&t->s[0], fftw_plan_guru64_r2r(1, &qr, 1 + hz, qrh, f->in, f->out, &kf[q], flags), 'r', f->in, f->out, pr, pr);
      FloorStageSet(&t->s[1], fftw_plan_guru64_dft_r2c(1, &rp, 1 + hz, rh, f->out, hc, flags), 'f', f->out, f->hat, pr, pc);
      FloorStageSet(&t->s[2], fftw_plan_guru64_dft_c2r(1, &cp, 1 + hz, ch, hc, f->out, flags), 'b', f->hat, f->out, pc, pr);
      FloorStageSet(&t->s[3], fftw_plan_guru64_r2r(1, &qr, 1 + hz, qrh, f->out, f->out, &kb[q], flags), 'r', f->out, f->out, pr, pr);
      PetscCall(PetscSNPrintf(t->kind, sizeof(t->kind), "%c %s on the real data (%s lines), then %c r2c/c2r (%s)%s", "xy"[q], kn[q], q ? "strided" : "contiguous", "xy"[p], p ? "strided" : "contiguous", loop));
    }
  }
  for (int i = 0; i < 2 * t->nf; i++) PetscCheck(t->s[i].p, PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan the floor's transforms (%s)", t->kind);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void FloorTransformsDestroy(FloorTransforms *t)
{
  for (int i = 0; i < 4; i++)
    if (t->s[i].p) fftw_destroy_plan(t->s[i].p);
  memset(t, 0, sizeof(*t));
}

/* Stages i0..i1-1 of t, each over every z plane. */
static void FloorExecute(const FloorTransforms *t, int i0, int i1)
{
  for (int i = i0; i < i1; i++) {
    const FloorStage *st = &t->s[i];
    for (PetscInt k = 0; k < t->nloop; k++) {
      double *in = st->in + k * st->din, *out = st->out + k * st->dout;
      if (st->type == 'f') fftw_execute_dft_r2c(st->p, in, (fftw_complex *)out);
      else if (st->type == 'b') fftw_execute_dft_c2r(st->p, (fftw_complex *)in, out);
      else fftw_execute_r2r(st->p, in, out);
    }
  }
}

/* The z systems, factorised once. For the (kx,ky) line of shift s = c_x lam_x + c_y lam_y
   (PPEGridEigenvalues1d, unit spacing, times the separable coefficients), the system is
   the z row of A = W (sigma + Lx + Ly + Lz) with the z-only row scale W = w_z folded in,
   times F, the round-trip factor of the unnormalised FFTW transforms (so that the solve
   also normalises):
       F w_k (-zlo_k u_{k-1} + (zdi_k + sigma + s) u_k - zhi_k u_{k+1}) = rhs_k.
   Stored: the nz x m inverse pivots ip_k = 1/p_k of each line (p_0 = b_0, p_k = b_k -
   a_k c_{k-1} / p_{k-1}) and the z-only couplings a_k, c_k (F w_k zlo_k and F w_k zhi_k,
   negated). A solve is one forward sweep y_k = r_k - a_k ip_{k-1} y_{k-1} and one backward
   sweep x_k = (y_k - c_k x_{k+1}) ip_k over whole planes (unit stride across the plane):
   the multiplier a_k ip_{k-1} is one product of a stored pivot and a z-only scalar, so each
   sweep streams one coefficient array (nz x m doubles) besides the data; storing the
   multipliers as a second array would add that much memory and change no sweep's
   traffic. The zero mode of a singular operator (s = 0, sigma = 0, no Dirichlet face) is
   pinned: its last pivot vanishes and ip = 0 there sets u_{nz-1} = 0 (the mean of the
   (0,0) line is then removed after the sweep when the x and y transforms have a constant
   zero mode, as PC fftptdma does, so that the result has zero mean). */
static PetscErrorCode FloorSetUpZ(Floor *f, PPEGrid grid, const PPESeparable *sep, double F)
{
  PetscInt         nx = f->N[0], ny = f->N[1], nz = f->N[2];
  PetscReal       *lx, *ly, *sh;
  const PetscReal *wz;
  PPELocation      loc;
  PPEBCType        bc[6];

  PetscFunctionBegin;
  PetscCall(PPEGridGetLocation(grid, &loc));
  for (int i = 0; i < 6; i++) PetscCall(PPEGridGetBC(grid, (PPEFace)i, &bc[i]));
  PetscCall(PPEGridGetWeights(grid, 2, &wz));
  PetscCall(PetscMalloc3(nx, &lx, ny, &ly, f->m, &sh));
  PetscCall(PPEGridEigenvalues1d(loc, bc[0], bc[1], nx, 1.0, lx));
  PetscCall(PPEGridEigenvalues1d(loc, bc[2], bc[3], ny, 1.0, ly));
  for (PetscInt j = 0; j < f->n0[1]; j++)
    for (PetscInt i = 0; i < f->n0[0]; i++) sh[j * f->n0[0] + i] = sep->c[0] * lx[i] + sep->c[1] * ly[j];
  f->a  = fftw_alloc_real((size_t)nz);
  f->c  = fftw_alloc_real((size_t)nz);
  f->ip = fftw_alloc_real((size_t)(nz * f->m));
  PetscCheck(f->a && f->c && f->ip, PETSC_COMM_SELF, PETSC_ERR_MEM, "fftw_alloc_real() failed for the floor's z factors");
  for (PetscInt k = 0; k < nz; k++) {
    f->a[k] = -F * wz[k] * sep->zlo[k];
    f->c[k] = -F * wz[k] * sep->zhi[k];
  }
  for (PetscInt l = 0; l < f->m; l++) {
    double p = F * wz[0] * (sep->zdi[0] + sep->sigma + sh[l]);
    f->ip[l] = 1.0 / p;
    for (PetscInt k = 1; k < nz; k++) {
      p                   = F * wz[k] * (sep->zdi[k] + sep->sigma + sh[l]) - f->a[k] * f->c[k - 1] / p;
      f->ip[k * f->m + l] = 1.0 / p;
    }
    if (sep->singular && sh[l] == 0.0) f->ip[(nz - 1) * f->m + l] = 0.0; /* the zero mode, pinned */
  }
  f->mean00 = (PetscBool)(sep->singular && loc == PPE_LOCATION_CELL);
  PetscCall(PetscFree3(lx, ly, sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The z sweeps on hat: for each plane, one unit-stride loop over its m coefficients (times
   ncomp doubles). */
static void FloorZ(const Floor *f)
{
  const PetscInt m = f->m, nz = f->N[2], w = m * f->ncomp;
  double *const  h = f->hat;

  for (PetscInt k = 1; k < nz; k++) {
    const double *PETSC_RESTRICT ip = f->ip + (k - 1) * m, *PETSC_RESTRICT yp = h + (k - 1) * w;
    double *PETSC_RESTRICT y = h + k * w;
    const double           a = f->a[k];
    if (f->ncomp == 2)
      for (PetscInt j = 0; j < m; j++) {
        const double l = a * ip[j];
        y[2 * j] -= l * yp[2 * j];
        y[2 * j + 1] -= l * yp[2 * j + 1];
      }
    else
      for (PetscInt j = 0; j < m; j++) y[j] -= a * ip[j] * yp[j];
  }
  {
    const double *PETSC_RESTRICT ip = f->ip + (nz - 1) * m;
    double *PETSC_RESTRICT       y  = h + (nz - 1) * w;
    if (f->ncomp == 2)
      for (PetscInt j = 0; j < m; j++) {
        y[2 * j] *= ip[j];
        y[2 * j + 1] *= ip[j];
      }
    else
      for (PetscInt j = 0; j < m; j++) y[j] *= ip[j];
  }
  for (PetscInt k = nz - 2; k >= 0; k--) {
    const double *PETSC_RESTRICT ip = f->ip + k * m, *PETSC_RESTRICT xn = h + (k + 1) * w;
    double *PETSC_RESTRICT y = h + k * w;
    const double           c = f->c[k];
    if (f->ncomp == 2)
      for (PetscInt j = 0; j < m; j++) {
        y[2 * j]     = (y[2 * j] - c * xn[2 * j]) * ip[j];
        y[2 * j + 1] = (y[2 * j + 1] - c * xn[2 * j + 1]) * ip[j];
      }
    else
      for (PetscInt j = 0; j < m; j++) y[j] = (y[j] - c * xn[j]) * ip[j];
  }
  if (f->mean00) { /* zero mean of the result: the (0,0) line carries all of it */
    double s = 0;
    for (PetscInt k = 0; k < nz; k++) s += h[k * w];
    s /= nz;
    for (PetscInt k = 0; k < nz; k++) h[k * w] -= s;
  }
}

/* One floor solve in -> out with the transforms tr: forward transforms, z sweeps, backward
   transforms, timed (t[0..2]; total in t[3]). */
static PetscErrorCode FloorRunWith(Floor *f, const FloorTransforms *tr, PetscReal t[4])
{
  PetscLogDouble t0, t1, t2, t3;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  FloorExecute(tr, 0, tr->nf);
  PetscCall(PetscTime(&t1));
  FloorZ(f);
  PetscCall(PetscTime(&t2));
  FloorExecute(tr, tr->nf, 2 * tr->nf);
  PetscCall(PetscTime(&t3));
  t[0] = (PetscReal)(t1 - t0);
  t[1] = (PetscReal)(t2 - t1);
  t[2] = (PetscReal)(t3 - t2);
  t[3] = (PetscReal)(t3 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FloorRun(Floor *f, PetscReal t[4])
{
  PetscFunctionBegin;
  PetscCall(FloorRunWith(f, &f->t, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FloorDestroy(Floor *f)
{
  PetscFunctionBegin;
  FloorTransformsDestroy(&f->t);
  if (f->in) fftw_free(f->in);
  if (f->out) fftw_free(f->out);
  if (f->hat) fftw_free(f->hat);
  if (f->ip) fftw_free(f->ip);
  if (f->a) fftw_free(f->a);
  if (f->c) fftw_free(f->c);
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies v into the floor's input (once: every forward plan keeps its input). */
static PetscErrorCode FloorSetInput(Floor *f, Vec v)
{
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(v, &a));
  PetscCall(PetscArraycpy(f->in, a, f->N[0] * f->N[1] * f->N[2]));
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The floor of the grid's operator (1 rank: whole planes), planned with flags, its input
   set to b. Every variant of FloorPlan() (one plan over the z planes or one per plane; with
   one periodic direction or none, both orders) is planned and timed in two solves; the fastest is
   kept, and the runner-up reported as alt. */
static PetscErrorCode FloorCreate(PPEGrid grid, unsigned flags, Vec b, Floor *f)
{
  PPESeparable    *sep;
  PetscBool        per[2];
  fftw_r2r_kind    kf[2], kb[2];
  const char      *kn;
  const PetscReal *w;
  double           F = 1;
  size_t           n, nh;
  PetscLogDouble   t0;
  FloorTransforms  var[4];
  PetscReal        vbest[4];
  int              nv = 0, best = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscCall(PPEGridGetSizes(grid, &f->N[0], &f->N[1], &f->N[2]));
  for (PetscInt d = 0; d < 2; d++) {
    PPEBCType bc;
    PetscCall(PPEGridGetBC(grid, (PPEFace)(2 * d), &bc));
    per[d] = (PetscBool)(bc == PPE_BC_PERIODIC);
    PetscCall(BareKinds(grid, d, &kf[d], &kb[d], &kn));
    F *= RoundTrip(per[d], kf[d], f->N[d]);
    /* a row scale that varies in x or y does not commute with the transforms */
    PetscCall(PPEGridGetWeights(grid, d, &w));
    for (PetscInt i = 0; i < f->N[d]; i++)
      PetscCheck(w[i] == 1.0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The floor folds the row scale into the z systems: it must not vary along %c (vertex-centred Neumann faces make it vary); use -bench_fft_floor 0", "xy"[d]);
  }
  {
    PPEBCType z0, z1;
    PetscCall(PPEGridGetBC(grid, PPE_FACE_ZLO, &z0));
    PetscCall(PPEGridGetBC(grid, PPE_FACE_ZHI, &z1));
    PetscCheck(z0 != PPE_BC_PERIODIC && z1 != PPE_BC_PERIODIC, PETSC_COMM_SELF, PETSC_ERR_SUP, "The floor's z sweep is the Thomas algorithm, not its periodic variant: no periodic z; use -bench_fft_floor 0");
  }
  f->n0[0] = per[0] ? f->N[0] / 2 + 1 : f->N[0];
  f->n0[1] = (per[1] && !per[0]) ? f->N[1] / 2 + 1 : f->N[1];
  f->ncomp = (per[0] || per[1]) ? 2 : 1;
  f->m     = f->n0[0] * f->n0[1];
  n        = (size_t)(f->N[0] * f->N[1] * f->N[2]);
  nh       = (size_t)(f->ncomp * f->m * f->N[2]);
  f->in    = fftw_alloc_real(n);
  f->out   = fftw_alloc_real(n);
  f->hat   = fftw_alloc_real(nh);
  PetscCheck(f->in && f->out && f->hat, PETSC_COMM_SELF, PETSC_ERR_MEM, "fftw_alloc_real() failed for the floor's arrays");
  PetscCall(PPESeparableCreateFromGrid(grid, &sep));
  PetscCall(FloorSetUpZ(f, grid, sep, F));
  PetscCall(PPESeparableDestroy(&sep));
  /* every variant planned (timed together), then each run twice; the fastest is kept */
  PetscCall(PetscTime(&t0));
  for (int order = 0; order < (per[0] && per[1] ? 1 : 2); order++)
    for (int pp = 0; pp < 2; pp++) {
      PetscBool ok;
      PetscCall(FloorPlan(f, grid, order, (PetscBool)pp, flags, &var[nv], &ok));
      if (ok) nv++;
    }
  PetscCall(Elapsed(PETSC_COMM_SELF, t0, &f->plan_s));
  PetscCall(FloorSetInput(f, b));
  for (int r = 0; r < 2; r++)
    for (int v = 0; v < nv; v++) {
      PetscReal tt[4];
      PetscCall(FloorRunWith(f, &var[v], tt));
      vbest[v] = r ? PetscMin(vbest[v], tt[3]) : tt[3];
    }
  for (int v = 1; v < nv; v++)
    if (vbest[v] < vbest[best]) best = v;
  f->t         = var[best];
  f->best_s    = vbest[best];
  f->nvariants = nv;
  f->alt_s     = PETSC_MAX_REAL;
  for (int v = 0; v < nv; v++) {
    if (v == best) continue;
    if (vbest[v] < f->alt_s) {
      f->alt_s = vbest[v];
      PetscCall(PetscStrncpy(f->alt, var[v].kind, sizeof(f->alt)));
    }
    FloorTransformsDestroy(&var[v]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Relative max difference of the floor's result to x (both with their means removed when
   the operator is singular), and the floor's true relative residual (r is work). */
static PetscErrorCode FloorCheck(Floor *f, Mat A, Vec b, Vec x, Vec r, PetscBool singular, PetscReal *rel, PetscReal *res)
{
  PetscScalar *ra;
  PetscScalar  mx = 0, mf = 0;
  PetscReal    dmax = 0, xmax = 0, rn, bn, t[4];
  PetscInt     n = f->N[0] * f->N[1] * f->N[2];

  PetscFunctionBegin;
  PetscCall(FloorRun(f, t));
  PetscCall(VecGetArray(r, &ra));
  PetscCall(PetscArraycpy(ra, f->out, n));
  PetscCall(VecRestoreArray(r, &ra));
  if (singular) {
    PetscCall(VecSum(x, &mx));
    PetscCall(VecSum(r, &mf));
    mx /= n;
    mf /= n;
  }
  {
    const PetscScalar *xa;
    PetscCall(VecGetArrayRead(x, &xa));
    for (PetscInt i = 0; i < n; i++) {
      dmax = PetscMax(dmax, PetscAbsScalar((xa[i] - mx) - (f->out[i] - mf)));
      xmax = PetscMax(xmax, PetscAbsScalar(xa[i] - mx));
    }
    PetscCall(VecRestoreArrayRead(x, &xa));
  }
  *rel = xmax > 0 ? dmax / xmax : dmax;
  {
    Vec u;
    PetscCall(VecDuplicate(r, &u));
    PetscCall(VecCopy(r, u));
    PetscCall(MatMult(A, u, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(VecNorm(b, NORM_2, &bn));
    PetscCall(VecDestroy(&u));
  }
  *res = bn > 0 ? rn / bn : rn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------
   The solvers
   --------------------------------------------------------------------------------------- */

/* the iterative solvers, in the order of -bench_fft_solvers' default */
static const char *const iter_names[] = {"boomeramg", "pfmg", "gamg", "mg", "mg-sor"};
#define NITER 5

typedef struct {
  const char        *name;       /* fftptdma or one of iter_names */
  KSP                ksp;        /* its solver */
  Mat                P;          /* the assembled preconditioning matrix (NULL for fftptdma) */
  DM                 mgda;       /* the DMDA of geometric multigrid (cell-centred transfers) */
  PetscReal          assembly_s; /* time to assemble P */
  PetscReal          setup_s;    /* KSPSetUp() */
  PetscReal          best_s;     /* best solve */
  PetscReal          sum_s;      /* sum of solves, for the mean */
  PetscInt           nsolves;    /* solves timed */
  PetscInt           its;        /* iterations of the last solve */
  PetscReal          rnorm_rel;  /* true relative residual of the last solve */
  KSPConvergedReason reason;
} Solver;

/* Sets an option under prefix unless the user gave it. */
static PetscErrorCode DefaultOption(const char prefix[], const char name[], const char value[])
{
  char      full[256];
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(full, sizeof(full), "-%s%s", prefix, name));
  PetscCall(PetscOptionsHasName(NULL, NULL, full, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, full, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A DMDA with the layout of the grid's one whose interpolation is piecewise constant
   (cell-centred: a coarse cell is the union of 2x2x2 fine cells, which works for any even
   size, periodic or not). */
static PetscErrorCode CreateMGDA(PPEGrid grid, DM *mgda)
{
  DM              da;
  PetscInt        M, N, P, m, n, p;
  DMBoundaryType  bx, by, bz;
  const PetscInt *lx, *ly, *lz;

  PetscFunctionBegin;
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, &P, &m, &n, &p, NULL, NULL, &bx, &by, &bz, NULL));
  PetscCall(DMDAGetOwnershipRanges(da, &lx, &ly, &lz));
  PetscCall(DMDACreate3d(PetscObjectComm((PetscObject)da), bx, by, bz, DMDA_STENCIL_STAR, M, N, P, m, n, p, 1, 1, lx, ly, lz, mgda));
  PetscCall(DMDASetInterpolationType(*mgda, DMDA_Q0));
  PetscCall(DMSetUp(*mgda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Multigrid levels: halve every direction while all sizes stay even and >= 4. */
static PetscInt MGLevels(const PetscInt N[3])
{
  PetscInt l = 1, n[3] = {N[0], N[1], N[2]};

  while (n[0] % 2 == 0 && n[1] % 2 == 0 && n[2] % 2 == 0 && n[0] >= 8 && n[1] >= 8 && n[2] >= 8) {
    for (int d = 0; d < 3; d++) n[d] /= 2;
    l++;
  }
  return l;
}

/* The fftptdma solver (KSP preonly) on the matrix-free operator, options under prefix;
   pgrid (py,pz) and zsolve (>= 0) override the PC's defaults when given. */
static PetscErrorCode CreateFFT(Mat A, const char prefix[], const PetscInt pgrid[2], PetscInt zsolve, Solver *s)
{
  PC             pc;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->name   = "fftptdma";
  s->best_s = PETSC_MAX_REAL;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &s->ksp));
  PetscCall(KSPSetOptionsPrefix(s->ksp, prefix));
  PetscCall(KSPSetOperators(s->ksp, A, A));
  PetscCall(KSPSetType(s->ksp, KSPPREONLY));
  PetscCall(KSPGetPC(s->ksp, &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA));
  PetscCall(KSPSetFromOptions(s->ksp));
  if (pgrid) PetscCall(PCFFTPTDMASetPencilGrid(pc, pgrid[0], pgrid[1]));
  if (zsolve >= 0) PetscCall(PCFFTPTDMASetZSolve(pc, (PCFFTPTDMAZSolve)zsolve));
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(s->ksp));
  PetscCall(Elapsed(PetscObjectComm((PetscObject)A), t0, &s->setup_s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An iterative solver: CG on the matrix-free operator with the named preconditioner on an
   assembled matrix (AIJ, or hyprestruct for PFMG); Aaij is shared by the AIJ solvers. */
static PetscErrorCode CreateIterative(PPEGrid grid, Mat A, Mat Aaij, const char name[], PetscReal rtol, Solver *s)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PC             pc;
  PetscInt       N[3];
  char           prefix[64], lev[16];
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->best_s = PETSC_MAX_REAL;
  for (int i = 0; i < NITER; i++)
    if (!strcmp(name, iter_names[i])) s->name = iter_names[i];
  PetscCheck(s->name, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown solver %s in -bench_fft_solvers: use fftptdma, bare, boomeramg, pfmg, gamg, mg, mg-sor", name);
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "bench_fft_%s_", s->name));
  for (char *c = prefix; *c; c++)
    if (*c == '-') *c = '_';
  if (!strcmp(s->name, "pfmg")) {
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    PetscCall(PPEStencilCreateAssembled(grid, MATHYPRESTRUCT, &s->P));
    PetscCall(Elapsed(comm, t0, &s->assembly_s));
  } else {
    s->P = Aaij;
    PetscCall(PetscObjectReference((PetscObject)Aaij));
  }
  /* defaults of each solver, overridable with -bench_fft_<name>_... */
  if (!strcmp(s->name, "boomeramg")) {
    /* the usual settings for 3D Poisson (hypre's defaults are tuned for 2D and make far
       denser coarse levels in 3D) */
    PetscCall(DefaultOption(prefix, "pc_hypre_boomeramg_strong_threshold", "0.5"));
    PetscCall(DefaultOption(prefix, "pc_hypre_boomeramg_coarsen_type", "HMIS"));
    PetscCall(DefaultOption(prefix, "pc_hypre_boomeramg_interp_type", "ext+i"));
    PetscCall(DefaultOption(prefix, "pc_hypre_boomeramg_P_max", "4"));
  } else if (!strncmp(s->name, "mg", 2)) {
    PetscCall(PetscSNPrintf(lev, sizeof(lev), "%" PetscInt_FMT, MGLevels(N)));
    PetscCall(DefaultOption(prefix, "pc_mg_levels", lev));
    PetscCall(DefaultOption(prefix, "pc_mg_galerkin", "pmat"));
    PetscCall(DefaultOption(prefix, "mg_coarse_pc_type", "svd")); /* singular coarse operators */
    if (!strcmp(s->name, "mg-sor")) {
      PetscCall(DefaultOption(prefix, "mg_levels_ksp_type", "richardson"));
      PetscCall(DefaultOption(prefix, "mg_levels_ksp_max_it", "1"));
      PetscCall(DefaultOption(prefix, "mg_levels_pc_type", "sor"));
    }
  }
  PetscCall(KSPCreate(comm, &s->ksp));
  PetscCall(KSPSetOptionsPrefix(s->ksp, prefix));
  /* geometric multigrid forms its coarse operators from the fine operator (Galerkin), which
     needs the assembled one; the others apply the matrix-free operator in CG */
  PetscCall(KSPSetOperators(s->ksp, strncmp(s->name, "mg", 2) ? A : s->P, s->P));
  PetscCall(KSPSetType(s->ksp, KSPCG));
  PetscCall(KSPSetNormType(s->ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(s->ksp, rtol, 0.0, PETSC_DEFAULT, 10000));
  PetscCall(KSPGetPC(s->ksp, &pc));
  if (!strcmp(s->name, "boomeramg")) {
    PetscCall(PCSetType(pc, PCHYPRE));
    PetscCall(PCHYPRESetType(pc, "boomeramg"));
  } else if (!strcmp(s->name, "pfmg")) PetscCall(PCSetType(pc, PCPFMG));
  else if (!strcmp(s->name, "gamg")) PetscCall(PCSetType(pc, PCGAMG));
  else {
    PetscCall(CreateMGDA(grid, &s->mgda));
    PetscCall(PCSetDM(pc, s->mgda));
    PetscCall(PCSetType(pc, PCMG));
  }
  PetscCall(KSPSetFromOptions(s->ksp));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(s->ksp));
  PetscCall(Elapsed(comm, t0, &s->setup_s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolverDestroy(Solver *s)
{
  PetscFunctionBegin;
  PetscCall(KSPDestroy(&s->ksp));
  PetscCall(MatDestroy(&s->P));
  PetscCall(DMDestroy(&s->mgda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One solve from a zero guess: time (kept if best), iterations, true residual. */
static PetscErrorCode SolverRun(Solver *s, Mat A, Vec b, Vec x, Vec r, PetscBool record, PetscReal *time)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PetscLogDouble t0;
  PetscReal      dt, rn, bn;

  PetscFunctionBegin;
  PetscCall(VecSet(x, 0.0));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(s->ksp, b, x));
  PetscCall(Elapsed(comm, t0, &dt));
  PetscCall(KSPGetIterationNumber(s->ksp, &s->its));
  PetscCall(KSPGetConvergedReason(s->ksp, &s->reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  s->rnorm_rel = bn > 0 ? rn / bn : rn;
  if (time) *time = dt;
  if (record) {
    s->best_s = PetscMin(s->best_s, dt);
    s->sum_s += dt;
    s->nsolves++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------
   The problem
   --------------------------------------------------------------------------------------- */

/* The channel problem at n^3 (grid options may change it) with the boundary conditions bcs
   (a code of -bench_fft_bcs; NULL: the channel's PPPPNN), its matrix-free operator, and a
   right-hand side made compatible (zero mean) when the operator is singular. Other BCs keep
   the channel's grid (tanh-stretched z: -ppe_grid_z_stretch none for a uniform one) and its
   source with homogeneous boundary data. */
static PetscErrorCode CreateProblem(MPI_Comm comm, PetscInt n, const PetscInt procs[3], const char bcs[], PPEGrid *grid, Mat *A, Vec *b)
{
  Vec       u;
  PetscBool known, singular;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, grid));
  PetscCall(PPEProblemSetGridDefaults(PPE_PROBLEM_CHANNEL, *grid));
  PetscCall(PPEGridSetSizes(*grid, n, n, n));
  if (bcs) PetscCall(PPEGridSetBCString(*grid, bcs));
  if (procs) PetscCall(PPEGridSetProcesses(*grid, procs[0], procs[1], procs[2]));
  PetscCall(PPEGridSetFromOptions(*grid));
  PetscCall(PPEGridSetUp(*grid));
  PetscCall(PPEStencilCreate(*grid, A));
  PetscCall(PPEStencilAttachNullSpace(*grid, *A));
  PetscCall(MatCreateVecs(*A, b, &u));
  PetscCall(PPEProblemComputeRHS(PPE_PROBLEM_CHANNEL, *grid, *b, u, &known));
  PetscCall(PPEGridIsSingular(*grid, &singular));
  if (singular) {
    PetscScalar s;
    PetscInt    N;
    PetscCall(VecSum(*b, &s));
    PetscCall(VecGetSize(*b, &N));
    PetscCall(VecShift(*b, -s / N));
  }
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "n": [...], "ranks": P, "problem", "bc" of every line */
static PetscErrorCode PrintHead(MPI_Comm comm, PPEGrid grid, const char what[])
{
  PetscInt    N[3];
  PetscMPIInt size;
  char        bcs[7];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PPEGridGetBCString(grid, bcs));
  PetscCall(PetscPrintf(comm, "{\"bench\": \"fft\", \"what\": \"%s\", \"problem\": \"channel\", \"bc\": \"%s\", \"n\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"ranks\": %d", what, bcs, N[0], N[1], N[2], (int)size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintSolver(MPI_Comm comm, PPEGrid grid, const Solver *s, PetscReal fft_pair_s, PetscReal fft_setup_s)
{
  PetscFunctionBegin;
  PetscCall(PrintHead(comm, grid, "solve"));
  PetscCall(PetscPrintf(comm,
                        ", \"solver\": \"%s\", \"ksp\": \"%s\", \"assembly_s\": %.6e, \"setup_s\": %.6e, \"solve_s\": %.6e, \"solve_mean_s\": %.6e, \"reps\": %" PetscInt_FMT ", \"its\": %" PetscInt_FMT ", \"reason\": \"%s\", \"rnorm_rel\": %.3e",
                        s->name, s->P ? "cg" : "preonly", (double)s->assembly_s, (double)s->setup_s, (double)s->best_s, (double)(s->sum_s / PetscMax(1, s->nsolves)), s->nsolves, s->its, KSPConvergedReasons[s->reason], (double)s->rnorm_rel));
  if (fft_pair_s > 0)
    PetscCall(
      PetscPrintf(comm, ", \"fftptdma_solve_s\": %.6e, \"ratio_solve\": %.3f, \"ratio_setup_solve\": %.3f", (double)fft_pair_s, (double)(s->best_s / fft_pair_s), (double)((s->assembly_s + s->setup_s + s->best_s) / (fft_setup_s + fft_pair_s))));
  PetscCall(PetscPrintf(comm, "}\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Is name in the comma-separated list? */
static PetscBool InList(const char list[], const char name[])
{
  size_t      l = strlen(name);
  const char *p = list;

  while ((p = strstr(p, name))) {
    if ((p == list || p[-1] == ',') && (p[l] == ',' || p[l] == 0)) return PETSC_TRUE;
    p += l;
  }
  return PETSC_FALSE;
}

/* ---------------------------------------------------------------------------------------
   Timing part
   --------------------------------------------------------------------------------------- */

static PetscErrorCode TimeSize(MPI_Comm comm, PetscInt n, const char bcs[], const PPEBenchOptions *o, const char solvers[], PetscBool dofloor, PetscInt iter_reps, PetscReal rtol, unsigned flags, const char flagname[])
{
  PPEGrid     grid;
  Mat         A, Aaij = NULL;
  Vec         b, x, r;
  Solver      fft;
  Bare        bare;
  Floor       floor;
  PetscReal   floor_best[4], floor_rel = 0, floor_res = 0;
  PetscBool   singular = PETSC_FALSE;
  PetscBool   dofft = InList(solvers, "fftptdma"), dobare = InList(solvers, "bare");
  PetscReal   bare_best[5], fft_best = PETSC_MAX_REAL, fft_setup = 0, asm_s = 0, pc_best = PETSC_MAX_REAL, nn_best = PETSC_MAX_REAL, nn_res = 0, fastest_fft = 0, fastest_fft_t = 0;
  PetscReal   fastest_s = PETSC_MAX_REAL, fastest_total = PETSC_MAX_REAL;
  const char *fastest = NULL, *fastest_t = NULL;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(CreateProblem(comm, n, NULL, bcs, &grid, &A, &b));
  PetscCall(PPEGridIsSingular(grid, &singular));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(PetscMemzero(&fft, sizeof(fft)));
  PetscCall(PetscMemzero(&bare, sizeof(bare)));
  PetscCall(PetscMemzero(&floor, sizeof(floor)));
  if (dofft) PetscCall(CreateFFT(A, "bench_fft_", NULL, -1, &fft));
  if (dobare) {
    PetscCheck(size == 1, comm, PETSC_ERR_SUP, "The bare FFTW transforms run on 1 rank only (whole x and y lines); leave bare out of -bench_fft_solvers on %d ranks", (int)size);
    PetscCall(BareCreate(grid, flags, &bare));
  }
  if (dofloor) {
    PC pc;

    PetscCheck(size == 1 && dofft, comm, PETSC_ERR_SUP, "The floor runs on 1 rank (whole planes) beside fftptdma; use -bench_fft_floor 0 on %d ranks or without fftptdma", (int)size);
    PetscCall(FloorCreate(grid, flags, b, &floor));
    /* checked once: the floor solves the same problem as the PC */
    PetscCall(KSPGetPC(fft.ksp, &pc));
    PetscCall(PCApply(pc, b, x));
    PetscCall(FloorCheck(&floor, A, b, x, r, singular, &floor_rel, &floor_res));
  }
  for (int i = 0; i < 4; i++) floor_best[i] = PETSC_MAX_REAL;

  /* fftptdma and the bare transforms alternate, after a warm-up of each */
  for (int i = 0; i < 5; i++) bare_best[i] = PETSC_MAX_REAL;
  for (PetscInt rep = -1; rep < o->reps; rep++) {
    if (dofft) {
      PC             pc;
      PetscLogDouble t0;
      PetscReal      t;

      PetscCall(SolverRun(&fft, A, b, x, r, (PetscBool)(rep >= 0), &t));
      if (rep >= 0) fft_best = PetscMin(fft_best, t);
      /* the PC alone: KSPSolve also removes the null space from b (a copy and a dot) */
      PetscCall(KSPGetPC(fft.ksp, &pc));
      PetscCallMPI(MPI_Barrier(comm));
      PetscCall(PetscTime(&t0));
      PetscCall(PCApply(pc, b, x));
      PetscCall(Elapsed(comm, t0, &t));
      if (rep >= 0) pc_best = PetscMin(pc_best, t);
      /* KSPSolve with no null space attached: fftptdma removes b's mean itself (it applies
         A^+ on this symmetric singular operator), so PETSc's copy and projection of b drop out */
      {
        MatNullSpace nsp, tnsp;
        PetscReal    rn, bn;
        PetscCall(MatGetNullSpace(A, &nsp));
        PetscCall(MatGetTransposeNullSpace(A, &tnsp));
        PetscCall(PetscObjectReference((PetscObject)nsp));
        PetscCall(PetscObjectReference((PetscObject)tnsp));
        PetscCall(MatSetNullSpace(A, NULL));
        PetscCall(MatSetTransposeNullSpace(A, NULL));
        PetscCall(VecSet(x, 0.0));
        PetscCallMPI(MPI_Barrier(comm));
        PetscCall(PetscTime(&t0));
        PetscCall(KSPSolve(fft.ksp, b, x));
        PetscCall(Elapsed(comm, t0, &t));
        if (rep >= 0) nn_best = PetscMin(nn_best, t);
        PetscCall(MatSetNullSpace(A, nsp));
        PetscCall(MatSetTransposeNullSpace(A, tnsp));
        PetscCall(MatNullSpaceDestroy(&nsp));
        PetscCall(MatNullSpaceDestroy(&tnsp));
        PetscCall(MatMult(A, x, r));
        PetscCall(VecAYPX(r, -1.0, b));
        PetscCall(VecNorm(r, NORM_2, &rn));
        PetscCall(VecNorm(b, NORM_2, &bn));
        nn_res = rn / bn;
      }
    }
    if (dobare) {
      PetscReal t[5];
      PetscCall(BareRun(&bare, b, t));
      if (rep >= 0)
        for (int i = 0; i < 5; i++) bare_best[i] = PetscMin(bare_best[i], t[i]);
    }
    if (dofloor) {
      PetscReal t[4];
      PetscCall(FloorRun(&floor, t));
      if (rep >= 0)
        for (int i = 0; i < 4; i++) floor_best[i] = PetscMin(floor_best[i], t[i]);
    }
  }
  if (dofft) {
    PetscCall(PrintSolver(comm, grid, &fft, 0, 0));
    fft_setup = fft.setup_s;
  }
  if (dobare) {
    PetscCall(PrintHead(comm, grid, "bare"));
    PetscCall(PetscPrintf(comm, ", \"solver\": \"fftw\", \"kinds\": [\"%s\", \"%s\"], \"fftw_flag\": \"%s\", \"plan_s\": %.6e, \"fwd_x_s\": %.6e, \"fwd_y_s\": %.6e, \"bwd_y_s\": %.6e, \"bwd_x_s\": %.6e, \"bare_s\": %.6e, \"reps\": %" PetscInt_FMT,
                          bare.kind[0], bare.kind[1], flagname, (double)bare.plan_s, (double)bare_best[0], (double)bare_best[1], (double)bare_best[2], (double)bare_best[3], (double)bare_best[4], o->reps));
    if (dofft)
      PetscCall(
        PetscPrintf(comm,
                    ", \"fftptdma_solve_s\": %.6e, \"ratio_solve_bare\": %.3f, \"fftptdma_pcapply_s\": %.6e, \"ratio_pcapply_bare\": %.3f, \"fftptdma_solve_nonull_s\": %.6e, \"ratio_solve_nonull_bare\": %.3f, \"fftptdma_nonull_rnorm_rel\": %.3e",
                    (double)fft_best, (double)(fft_best / bare_best[4]), (double)pc_best, (double)(pc_best / bare_best[4]), (double)nn_best, (double)(nn_best / bare_best[4]), (double)nn_res));
    PetscCall(PetscPrintf(comm, "}\n"));
  }
  if (dofloor) {
    char code[7];
    PetscCall(PPEGridGetBCString(grid, code));
    PetscCall(PrintHead(comm, grid, "floor"));
    PetscCall(PetscPrintf(comm, ", \"bcs\": \"%s\", \"singular\": %s, \"floor_kind\": \"%s\", \"floor_variants\": %" PetscInt_FMT ", \"fftw_flag\": \"%s\", \"plan_s\": %.6e, \"fwd_s\": %.6e, \"z_s\": %.6e, \"bwd_s\": %.6e, \"floor_s\": %.6e", code,
                          singular ? "true" : "false", floor.t.kind, floor.nvariants, flagname, (double)floor.plan_s, (double)floor_best[0], (double)floor_best[1], (double)floor_best[2], (double)floor_best[3]));
    if (floor.alt[0]) PetscCall(PetscPrintf(comm, ", \"floor_alt_kind\": \"%s\", \"floor_alt_setup_s\": %.6e", floor.alt, (double)floor.alt_s));
    PetscCall(PetscPrintf(comm,
                          ", \"pcapply_s\": %.6e, \"ksp_s\": %.6e, \"ksp_nullspace_s\": %.6e, \"ratio_pcapply_floor\": %.3f, \"ratio_ksp_nullspace_pcapply\": %.3f, \"ratio_ksp_floor\": "
                          "%.3f, \"ratio_ksp_nullspace_floor\": %.3f, \"setup_s\": %.6e, \"setup_solves\": %.2f, \"floor_vs_pc_rel\": %.3e, \"floor_rnorm_rel\": %.3e, \"reps\": %" PetscInt_FMT,
                          (double)pc_best, (double)nn_best, (double)fft_best, (double)(pc_best / floor_best[3]), (double)(fft_best / pc_best), (double)(nn_best / floor_best[3]), (double)(fft_best / floor_best[3]), (double)fft.setup_s,
                          (double)(fft.setup_s / pc_best), (double)floor_rel, (double)floor_res, o->reps));
    if (dobare) PetscCall(PetscPrintf(comm, ", \"bare_s\": %.6e, \"ratio_pcapply_bare\": %.3f, \"ratio_bare_floor\": %.3f", (double)bare_best[4], (double)(pc_best / bare_best[4]), (double)(bare_best[4] / floor_best[3])));
    PetscCall(PetscPrintf(comm, "}\n"));
    PetscCall(FloorDestroy(&floor));
  }
  if (dobare) PetscCall(BareDestroy(&bare));

  /* each iterative solver alternates with fftptdma; one of them in memory at a time */
  for (int k = 0; k < NITER; k++) {
    Solver    s;
    PetscReal pair_best = PETSC_MAX_REAL;

    if (!InList(solvers, iter_names[k])) continue;
    if (!strcmp(iter_names[k], "boomeramg") || !strcmp(iter_names[k], "pfmg")) {
      PetscBool has;
      PetscInt  v[3];

      /* a PETSc without hypre (a common build, and the PETSc 3.25 of CI) drops these rows */
      PetscCall(PetscHasExternalPackage("hypre", &has));
      if (!has) {
        PetscCall(PetscGetVersionNumber(&v[0], &v[1], &v[2], NULL));
        PetscCall(PrintHead(comm, grid, "skipped"));
        PetscCall(PetscPrintf(comm, ", \"solver\": \"%s\", \"note\": \"PETSc %d.%d.%d was built without hypre\"}\n", iter_names[k], (int)v[0], (int)v[1], (int)v[2]));
        continue;
      }
    }
    if (strcmp(iter_names[k], "pfmg") && !Aaij) {
      PetscLogDouble t0;
      PetscCallMPI(MPI_Barrier(comm));
      PetscCall(PetscTime(&t0));
      PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &Aaij));
      PetscCall(Elapsed(comm, t0, &asm_s));
    }
    PetscCall(CreateIterative(grid, A, Aaij, iter_names[k], rtol, &s));
    if (s.P == Aaij) s.assembly_s = asm_s;
    for (PetscInt rep = 0; rep < iter_reps; rep++) {
      if (dofft) {
        PetscReal t;
        PetscCall(SolverRun(&fft, A, b, x, r, PETSC_TRUE, &t));
        pair_best = PetscMin(pair_best, t);
      }
      PetscCall(SolverRun(&s, A, b, x, r, PETSC_TRUE, NULL));
    }
    PetscCall(PrintSolver(comm, grid, &s, dofft ? pair_best : 0, fft_setup));
    if (s.best_s < fastest_s) {
      fastest_s   = s.best_s;
      fastest     = s.name;
      fastest_fft = pair_best;
    }
    if (s.assembly_s + s.setup_s + s.best_s < fastest_total) {
      fastest_total = s.assembly_s + s.setup_s + s.best_s;
      fastest_t     = s.name;
      fastest_fft_t = pair_best;
    }
    PetscCall(SolverDestroy(&s));
  }
  PetscCall(MatDestroy(&Aaij));

  /* the summary: the acceptance bars (fftptdma solve within 1.5 bare transforms, the fastest
     iterative solver at least 10 times slower), as information; every ratio uses the
     fftptdma solves that alternated with the variant it is compared with */
  if (dofft) {
    PetscCall(PrintHead(comm, grid, "summary"));
    PetscCall(PetscPrintf(comm, ", \"fftptdma_setup_s\": %.6e, \"fftptdma_solve_s\": %.6e, \"fftptdma_best_s\": %.6e, \"fftptdma_solves\": %" PetscInt_FMT ", \"fftptdma_rnorm_rel\": %.3e", (double)fft_setup, (double)fft_best, (double)fft.best_s,
                          fft.nsolves, (double)fft.rnorm_rel));
    if (dobare)
      PetscCall(PetscPrintf(comm,
                            ", \"bare_s\": %.6e, \"ratio_solve_bare\": %.3f, \"bar_solve_bare\": 1.5, \"pass_solve_bare\": %s, \"fftptdma_pcapply_s\": %.6e, \"ratio_pcapply_bare\": "
                            "%.3f, \"pass_pcapply_bare\": %s, \"fftptdma_solve_nonull_s\": %.6e, \"ratio_solve_nonull_bare\": %.3f, \"pass_solve_nonull_bare\": %s",
                            (double)bare_best[4], (double)(fft_best / bare_best[4]), fft_best <= 1.5 * bare_best[4] ? "true" : "false", (double)pc_best, (double)(pc_best / bare_best[4]), pc_best <= 1.5 * bare_best[4] ? "true" : "false",
                            (double)nn_best, (double)(nn_best / bare_best[4]), nn_best <= 1.5 * bare_best[4] ? "true" : "false"));
    if (fastest)
      PetscCall(PetscPrintf(comm,
                            ", \"fastest_iterative\": \"%s\", \"fastest_iterative_s\": %.6e, \"fftptdma_paired_s\": %.6e, \"ratio_iterative\": %.2f, \"fastest_iterative_setup_solve\": "
                            "\"%s\", \"fastest_iterative_setup_solve_s\": %.6e, \"ratio_iterative_setup_solve\": %.2f, \"bar_iterative\": 10, \"pass_iterative\": %s",
                            fastest, (double)fastest_s, (double)fastest_fft, (double)(fastest_s / fastest_fft), fastest_t, (double)fastest_total, (double)(fastest_total / (fft_setup + fastest_fft_t)),
                            fastest_s >= 10 * fastest_fft ? "true" : "false"));
    PetscCall(PetscPrintf(comm, "}\n"));
  }
  PetscCall(SolverDestroy(&fft));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------
   Bytes part
   --------------------------------------------------------------------------------------- */

/* Bytes sent per solve, all ranks, by the z method zsolve on pencil grid py,pz (DMDA on the
   x-pencil process grid 1 x py x pz unless -bench_fft_bytes_pencil_dmda 0): PETSc's MPI
   counters (PPECountersGet(): every message and all-to-all block, a rank's block to itself
   included) and the PC's own per-phase counts of the bytes sent to other ranks
   (PCFFTPTDMAGetCommCounts(): DMDA <-> x-pencils, x <-> y, z), next to the PC's model and
   the model of Diez, Peeters and Costa (2025) computed here from the sizes alone. */
static PetscErrorCode BytesCase(MPI_Comm comm, PetscInt n, const PetscInt pgrid[2], PCFFTPTDMAZSolve zsolve, PetscBool pencil_dmda)
{
  PPEGrid        grid;
  Mat            A;
  Vec            b, x, r;
  Solver         fft;
  PC             pc;
  PPECounters    c0, c1, dc;
  PetscLogDouble bytes, cnt0[3], cnt1[3], loc[6], tot[6], model[3];
  PetscInt       N[3], procs[3] = {1, pgrid[0], pgrid[1]}, py = pgrid[0], pz = pgrid[1];
  PetscReal      xy_paper, z_paper;
  PetscInt       nxs;

  PetscFunctionBegin;
  PetscCall(CreateProblem(comm, n, pencil_dmda ? procs : NULL, NULL, &grid, &A, &b));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(CreateFFT(A, "bench_fft_bytes_", pgrid, zsolve, &fft));
  PetscCall(KSPGetPC(fft.ksp, &pc));
  PetscCall(SolverRun(&fft, A, b, x, r, PETSC_FALSE, NULL)); /* warm-up, and the residual */
  PetscCall(PCFFTPTDMAGetCommCounts(pc, NULL, cnt0, NULL));
  PetscCall(PPECountersGet(&c0));
  PetscCall(KSPSolve(fft.ksp, b, x)); /* one solve, nothing else between the snapshots */
  PetscCall(PPECountersGet(&c1));
  PetscCall(PCFFTPTDMAGetCommCounts(pc, NULL, cnt1, model));
  PetscCall(PPECountersDiff(&c1, &c0, &dc));
  for (int i = 0; i < 3; i++) {
    loc[i]     = cnt1[i] - cnt0[i];
    loc[3 + i] = model[i];
  }
  PetscCall(MPIU_Allreduce(loc, tot, 6, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  PetscCall(MPIU_Allreduce(&dc.bytes_sent, &bytes, 1, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  /* Diez, Peeters and Costa (2025), sec. 2.2.2-2.2.3, 8-byte values sent to other ranks: each x <-> y transpose
     moves the share (py-1)/py of all N values; the full-transpose z method moves (pz-1)/pz
     of them each way; P-TDMA sends 2 boundary values per line and rank of the z group to
     the rank that solves that line's reduced system (2 pz unknowns) and gets 2 back. */
  /* the channel's periodic x goes through r2c (PCFFTPTDMASetR2C): a line then carries
     2 (nx/2 + 1) values (the complex half spectrum) from the x transform on */
  {
    PetscBool r2c;
    PetscCall(PCFFTPTDMAGetR2C(pc, &r2c));
    nxs = r2c ? 2 * (N[0] / 2 + 1) : N[0];
  }
  xy_paper = 2.0 * 8.0 * nxs * N[1] * N[2] * (py - 1) / py;
  if (zsolve == PC_FFTPTDMA_ZSOLVE_TRANSPOSE) z_paper = 2.0 * 8.0 * nxs * N[1] * N[2] * (pz - 1) / pz;
  else z_paper = 4.0 * 8.0 * nxs * N[1] * (pz - 1);
  PetscCall(PrintHead(comm, grid, "bytes"));
  PetscCall(PetscPrintf(comm,
                        ", \"pgrid\": [%" PetscInt_FMT ", %" PetscInt_FMT "], \"dmda\": \"%s\", \"zsolve\": \"%s\", \"petsc_bytes_sent\": %.0f, \"bytes_redist\": %.0f, \"bytes_xy\": %.0f, \"bytes_z\": "
                        "%.0f, \"model_redist\": %.0f, \"model_xy\": %.0f, \"model_z\": %.0f, \"paper_xy\": %.0f, \"paper_z\": %.0f, \"rnorm_rel\": %.3e}\n",
                        py, pz, pencil_dmda ? "pencil" : "petsc", PCFFTPTDMAZSolves[zsolve], (double)bytes, (double)tot[0], (double)tot[1], (double)tot[2], (double)tot[3], (double)tot[4], (double)tot[5], (double)xy_paper, (double)z_paper,
                        (double)fft.rnorm_rel));
  PetscCall(SolverDestroy(&fft));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------
   The kind
   --------------------------------------------------------------------------------------- */

PetscErrorCode PPEBenchFFT(MPI_Comm comm, const PPEBenchOptions *o)
{
  PetscInt    sizes[16] = {128, 256}, nsizes = 16, pgrids[32], npg = 32, bytes_n = 128, iter_reps = PetscMin(o->reps, 3), flag = 1;
  PetscBool   dotime, dobytes, flg, pencil_dmda = PETSC_TRUE, dofloor;
  char       *bcs[16];
  PetscInt    nbcs         = 16;
  PetscReal   rtol         = 1e-8;
  char        solvers[256] = "fftptdma,bare,boomeramg,pfmg,gamg,mg,mg-sor";
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  dotime  = (PetscBool)(size == 1);
  dobytes = (PetscBool)(size > 1);
  PetscOptionsBegin(comm, NULL, "ppe-bench -bench fft options", "PPEKit");
  PetscCall(PetscOptionsIntArray("-bench_fft_n", "Cube sizes n of the timing part (n^3 channel)", NULL, sizes, &nsizes, &flg));
  if (!flg) nsizes = 2;
  PetscCall(PetscOptionsBool("-bench_fft_time", "Run the timing part", NULL, dotime, &dotime, NULL));
  PetscCall(PetscOptionsString("-bench_fft_solvers", "Solvers of the timing part: fftptdma,bare,boomeramg,pfmg,gamg,mg,mg-sor", NULL, solvers, solvers, sizeof(solvers), NULL));
  PetscCall(PetscOptionsStringArray("-bench_fft_bcs", "Boundary conditions of the timing part, one problem each: 6-letter codes of P, N, D over xlo,xhi,ylo,yhi,zlo,zhi (default PPPPNN, the channel)", NULL, bcs, &nbcs, &flg));
  if (!flg) nbcs = 0;
  dofloor = (PetscBool)(size == 1 && InList(solvers, "fftptdma"));
  PetscCall(PetscOptionsBool("-bench_fft_floor", "Time the FFTW floor (2D transforms per z plane, plane-sweep Thomas in z) beside fftptdma (default: on 1 rank when fftptdma runs)", NULL, dofloor, &dofloor, NULL));
  PetscCall(PetscOptionsInt("-bench_fft_iter_reps", "Solves of each iterative solver (best reported)", NULL, iter_reps, &iter_reps, NULL));
  PetscCall(PetscOptionsReal("-bench_fft_rtol", "Relative tolerance (true residual) of the iterative solvers", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsEList("-bench_fft_fftw_flag", "FFTW planner flag of the bare transforms and the floor", NULL, FFTWFlags, 3, FFTWFlags[flag], &flag, NULL));
  PetscCall(PetscOptionsBool("-bench_fft_bytes", "Run the bytes part", NULL, dobytes, &dobytes, NULL));
  PetscCall(PetscOptionsInt("-bench_fft_bytes_n", "Cube size n of the bytes part", NULL, bytes_n, &bytes_n, NULL));
  PetscCall(PetscOptionsIntArray("-bench_fft_pgrids", "Pencil grids py,pz,py,pz,... of the bytes part (default: every py*pz = ranks)", NULL, pgrids, &npg, &flg));
  if (!flg) npg = 0;
  PetscCall(PetscOptionsBool("-bench_fft_bytes_pencil_dmda", "DMDA of the bytes part on the x-pencil process grid 1,py,pz (else PETSc's choice)", NULL, pencil_dmda, &pencil_dmda, NULL));
  PetscOptionsEnd();
  {
    char list[256], *tok;
    PetscCall(PetscStrncpy(list, solvers, sizeof(list)));
    for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
      PetscBool known = (PetscBool)(!strcmp(tok, "fftptdma") || !strcmp(tok, "bare"));
      for (int i = 0; i < NITER; i++) known = (PetscBool)(known || !strcmp(tok, iter_names[i]));
      PetscCheck(known, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown solver %s in -bench_fft_solvers: use fftptdma, bare, boomeramg, pfmg, gamg, mg, mg-sor", tok);
    }
  }
  for (PetscInt i = 0; i < nbcs; i++) {
    size_t    len;
    PetscBool ok;

    PetscCall(PetscStrlen(bcs[i], &len));
    ok = (PetscBool)(len == 6);
    for (size_t c = 0; ok && c < 6; c++) {
      bcs[i][c] = (char)toupper((unsigned char)bcs[i][c]);
      ok        = (PetscBool)(bcs[i][c] == 'P' || bcs[i][c] == 'N' || bcs[i][c] == 'D');
    }
    PetscCheck(ok, comm, PETSC_ERR_ARG_WRONG, "-bench_fft_bcs: \"%s\" is not a boundary-condition code: 6 letters P, N or D over xlo,xhi,ylo,yhi,zlo,zhi (e.g. PPPPNN)", bcs[i]);
    for (int d = 0; d < 3; d++) {
      char pair[7];

      PetscCall(PetscStrncpy(pair, bcs[i], sizeof(pair)));
      pair[2 * d] = pair[2 * d + 1] = 'P';
      PetscCheck((bcs[i][2 * d] == 'P') == (bcs[i][2 * d + 1] == 'P'), comm, PETSC_ERR_ARG_INCOMP, "-bench_fft_bcs: \"%s\": periodic faces come in pairs (%c has one; %s is %c periodic)", bcs[i], "xyz"[d], pair, "xyz"[d]);
    }
    PetscCheck(!dofloor || bcs[i][4] != 'P', comm, PETSC_ERR_SUP, "-bench_fft_bcs: \"%s\": the floor's z sweep is the non-periodic Thomas algorithm; use -bench_fft_floor 0 for periodic z", bcs[i]);
  }
  PetscCheck(npg % 2 == 0, comm, PETSC_ERR_ARG_SIZ, "-bench_fft_pgrids takes pairs py,pz; got %" PetscInt_FMT " values", npg);
  PetscCheck(iter_reps >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_fft_iter_reps must be >= 1, got %" PetscInt_FMT, iter_reps);
  for (PetscInt i = 0; i < npg; i += 2)
    PetscCheck(pgrids[i] >= 1 && pgrids[i + 1] >= 1 && pgrids[i] * pgrids[i + 1] == size, comm, PETSC_ERR_ARG_INCOMP, "-bench_fft_pgrids: %" PetscInt_FMT " x %" PetscInt_FMT " is not a grid of the %d ranks", pgrids[i], pgrids[i + 1], (int)size);
  if (!npg)
    for (PetscInt pz = 1; pz <= size && npg < 32; pz++)
      if (size % pz == 0) {
        pgrids[npg++] = size / pz;
        pgrids[npg++] = pz;
      }

  if (dotime)
    for (PetscInt c = 0; c < PetscMax(nbcs, 1); c++)
      for (PetscInt i = 0; i < nsizes; i++) PetscCall(TimeSize(comm, sizes[i], nbcs ? bcs[c] : NULL, o, solvers, dofloor, iter_reps, rtol, fftw_flag_values[flag], FFTWFlags[flag]));
  for (PetscInt i = 0; i < nbcs; i++) PetscCall(PetscFree(bcs[i]));
  if (dobytes)
    for (PetscInt i = 0; i < npg; i += 2) {
      PetscCall(BytesCase(comm, bytes_n, &pgrids[i], PC_FFTPTDMA_ZSOLVE_PTDMA, pencil_dmda));
      PetscCall(BytesCase(comm, bytes_n, &pgrids[i], PC_FFTPTDMA_ZSOLVE_TRANSPOSE, pencil_dmda));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}
