static const char help[] = "The numerical core of KSP cbcg (src/krylov, src/kernels/tsblock.h): tall-skinny Gram\n\
products with their one reduction, the in-place block update, x/r update and Chebyshev step\n\
against plain loops, the generic and AVX2 host instances bitwise; the Gram analysis on built\n\
matrices (equilibration, cut to well-conditioned columns, negative curvature, asymmetry, NaN);\n\
the Chebyshev basis against T_j evaluated directly; the Lanczos estimate against known spectra;\n\
Ritz values from a block's Gram matrix and the Newton basis with them as Leja-ordered shifts.\n\n";

#include <ppekit/private/sstepimpl.h>
#include "tap.h"
#include <math.h>

/* Vectors with uneven local sizes (rank r owns n + 3r + odd entries) and reproducible contents. */
static PetscErrorCode MakeVecs(MPI_Comm comm, PetscInt nloc, PetscInt k, PetscInt seed, Vec **v)
{
  Vec          t;
  PetscMPIInt  rank;
  PetscInt     lo;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(VecCreateMPI(comm, nloc + 3 * rank, PETSC_DETERMINE, &t));
  PetscCall(VecDuplicateVecs(t, k, v));
  PetscCall(VecGetOwnershipRange(t, &lo, NULL));
  for (PetscInt j = 0; j < k; j++) {
    PetscInt n;
    PetscCall(VecGetLocalSize((*v)[j], &n));
    PetscCall(VecGetArray((*v)[j], &a));
    for (PetscInt i = 0; i < n; i++) a[i] = PetscSinReal(0.37 * (lo + i) * (j + 1 + seed) + 0.1 * j) + 0.01 * j;
    PetscCall(VecRestoreArray((*v)[j], &a));
  }
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Largest relative error of the Gram products against VecDot. */
static PetscErrorCode CheckGram(PetscInt nx, Vec x[], PetscInt ny, Vec y[], PetscInt band, PetscReal *err)
{
  PetscScalar out[PPE_TS_MAXCOLS * PPE_TS_MAXCOLS], extra[2] = {1.0, 2.0};
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)x[0]), &size));
  PetscCall(PPETSGram(nx, x, ny, y, band, out, 2, extra));
  *err = PetscAbsScalar(extra[0] - size) + PetscAbsScalar(extra[1] - 2.0 * size);
  for (PetscInt b = 0; b < ny; b++)
    for (PetscInt a = 0; a < nx; a++) {
      PetscScalar d;
      PetscReal   nxa, nyb;
      if (b < a - band) {
        *err = PetscMax(*err, PetscAbsScalar(out[a + nx * b]));
        continue;
      }
      PetscCall(VecDot(y[b], x[a], &d));
      PetscCall(VecNorm(x[a], NORM_2, &nxa));
      PetscCall(VecNorm(y[b], NORM_2, &nyb));
      *err = PetscMax(*err, PetscAbsScalar(out[a + nx * b] - d) / (nxa * nyb));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Run the host kernels on local arrays with both instances; 1 when the results are bitwise equal. */
static PetscBool SameBits(const double *a, const double *b, PetscInt n)
{
  for (PetscInt i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof(double))) return PETSC_FALSE;
  return PETSC_TRUE;
}

static PetscErrorCode CheckInstances(MPI_Comm comm)
{
  const PetscInt n = 1003, k = 11, m = 7;
  double        *q[PPE_TS_MAXCOLS], *s[2][PPE_TS_MAXCOLS], out[2][PPE_TS_MAXCOLS * PPE_TS_MAXCOLS], B[PPE_TS_MAXCOLS * PPE_TS_MAXCOLS], x[2][1003], r[2][1003], z[2][1003];
  PetscBool      avx2, same = PETSC_TRUE;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < k; j++) {
    PetscCall(PetscMalloc1(n, &q[j]));
    for (PetscInt i = 0; i < n; i++) q[j][i] = PetscCosReal(0.3 * i * (j + 1)) + 1e-3 * i;
  }
  for (int v = 0; v < 2; v++)
    for (PetscInt j = 0; j < m; j++) {
      PetscCall(PetscMalloc1(n, &s[v][j]));
      for (PetscInt i = 0; i < n; i++) s[v][j][i] = PetscSinReal(0.7 * i + j);
    }
  for (PetscInt i = 0; i < k * m; i++) B[i] = 1.0 / (1.0 + i);
  for (int v = 0; v < 2; v++) {
    for (PetscInt i = 0; i < n; i++) x[v][i] = r[v][i] = z[v][i] = 0.5 * i;
    avx2 = PPETSHostSetInstance(v ? PETSC_TRUE : PETSC_FALSE);
    if (v && !avx2) break;
    PPETSGram_Host(n, k, (const double *const *)q, k, (const double *const *)q, 1, out[v]);
    PPETSCombine_Host(n, k, (const double *const *)q, m, s[v], B);
    PPETSAxpy_Host(n, k, (const double *const *)q, (const double *const *)q, B, x[v], r[v]);
    PPETSCheb_Host(n, 2.0, q[0], 0.5, q[1], z[v], z[v]);
  }
  avx2 = PPETSHostSetInstance(PETSC_TRUE);
  if (avx2) {
    same = (PetscBool)(SameBits(out[0], out[1], k * k) && SameBits(x[0], x[1], n) && SameBits(r[0], r[1], n) && SameBits(z[0], z[1], n));
    for (PetscInt j = 0; j < m; j++) same = (PetscBool)(same && SameBits(s[0][j], s[1][j], n));
    PetscCall(TapCheck(comm, same, "host kernels: the AVX2 and generic instances give the same bits (Gram, combine, x/r update, Chebyshev step)"));
  } else PetscCall(TapCheck(comm, PETSC_TRUE, "host kernels: no AVX2 on this CPU, generic instance only # SKIP"));
  for (PetscInt j = 0; j < k; j++) PetscCall(PetscFree(q[j]));
  for (int v = 0; v < 2; v++)
    for (PetscInt j = 0; j < m; j++) PetscCall(PetscFree(s[v][j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G = V' V + shift I for a k x k Vandermonde-like V with columns scaled by 10^(e j) */
static void BuildGram(PetscInt k, PetscReal spread, PetscReal scale, PetscScalar G[])
{
  PetscScalar V[PPE_CBCG_SMAX * 40];
  for (PetscInt j = 0; j < k; j++)
    for (PetscInt i = 0; i < 40; i++) V[i + 40 * j] = PetscPowReal(scale, (PetscReal)j) * PetscCosReal((j + 1) * (0.1 + spread * i));
  for (PetscInt j = 0; j < k; j++)
    for (PetscInt i = 0; i < k; i++) {
      PetscScalar d = 0;
      for (PetscInt p = 0; p < 40; p++) d += V[p + 40 * i] * V[p + 40 * j];
      G[i + k * j] = d;
    }
}

static PetscErrorCode CheckGramAnalysis(MPI_Comm comm)
{
  PetscScalar    G[PPE_CBCG_SMAX * PPE_CBCG_SMAX], H[PPE_CBCG_SMAX * PPE_CBCG_SMAX], b[PPE_CBCG_SMAX], x[PPE_CBCG_SMAX];
  PPEGramFactor  f;
  PPEGramStatus  st;
  PetscReal      res = 0;
  const PetscInt k   = 8;

  PetscFunctionBegin;
  /* well conditioned but with columns 10^6 apart in scale: equilibration makes it usable */
  BuildGram(k, 0.11, 1e3, G);
  PetscCall(PPEGramAnalyse(k, G, k, 1e10, PETSC_TRUE, &f, &st));
  for (PetscInt i = 0; i < k; i++) b[i] = x[i] = 1.0 + i;
  PetscCall(PPEGramSolve(&f, 1, x, k));
  for (PetscInt i = 0; i < k; i++) {
    PetscScalar gi = 0;
    PetscReal   nb = 0;
    for (PetscInt j = 0; j < k; j++) {
      gi += G[i + k * j] * x[j];
      nb += PetscAbsScalar(G[i + k * j] * x[j]);
    }
    res = PetscMax(res, PetscAbsScalar(gi - b[i]) / nb);
  }
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_OK && f.kuse == k && res < 1e-13 && f.cond < 1e6),
                     "Gram analysis: badly scaled SPD matrix equilibrated (%s, want %s; condition %.2e < 1e6), all %" PetscInt_FMT " columns (want %" PetscInt_FMT "), solve residual %.1e (< 1e-13)", PPEGramStatuses[st], PPEGramStatuses[PPE_GRAM_OK],
                     (double)f.cond, f.kuse, k, (double)res));

  /* nearly dependent tail: cut to the leading columns within the limit */
  BuildGram(k, 0.004, 1.0, G);
  PetscCall(PPEGramAnalyse(k, G, k, 1e6, PETSC_TRUE, &f, &st));
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_TRUNCATED && f.kuse >= 1 && f.kuse < k && f.cond <= 1e6 && f.cond_full > 1e6),
                     "Gram analysis: nearly dependent columns cut from %" PetscInt_FMT " to %" PetscInt_FMT " (want 1 .. k - 1; %s, want %s) (condition %.2e (> 1e6) -> %.2e <= 1e6)", k, f.kuse, PPEGramStatuses[st],
                     PPEGramStatuses[PPE_GRAM_TRUNCATED], (double)f.cond_full, (double)f.cond));

  /* negative curvature */
  BuildGram(k, 0.11, 1.0, G);
  for (PetscInt i = 0; i < k * k; i++) H[i] = G[i];
  for (PetscInt i = 0; i < k; i++) H[i + k * i] -= 0.5 * G[k * k - 1];
  H[3 + k * 3] = -0.1;
  PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_INDEFINITE), "Gram analysis: a negative diagonal entry is negative curvature (%s)", PPEGramStatuses[st]));
  for (PetscInt j = 0; j < k; j++) /* unit diagonal, -1/2 elsewhere: eigenvalues 3/2 and 1 - (k-1)/2 */
    for (PetscInt i = 0; i < k; i++) H[i + k * j] = i == j ? 1.0 : -0.5;
  {
    PetscReal dmin = PETSC_MAX_REAL;
    for (PetscInt i = 0; i < k; i++) dmin = PetscMin(dmin, PetscRealPart(H[i + k * i]));
    PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
    PetscCall(TapCheck(comm, (PetscBool)(dmin > 0 && st == PPE_GRAM_INDEFINITE && f.eigmin < 0), "Gram analysis: positive diagonal (smallest %g, want > 0) but a negative eigenvalue (%.2e, want < 0) is negative curvature (%s, want %s)", (double)dmin,
                       (double)f.eigmin, PPEGramStatuses[st], PPEGramStatuses[PPE_GRAM_INDEFINITE]));
  }
  H[0] = -1.0;
  PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
  PetscCall(
    TapCheck(comm, (PetscBool)(st == PPE_GRAM_INDEFINITE && f.kuse == 0), "Gram analysis: G_00 < 0 leaves nothing usable (%s, want %s; %" PetscInt_FMT " columns used, want 0)", PPEGramStatuses[st], PPEGramStatuses[PPE_GRAM_INDEFINITE], f.kuse));
  H[0] = 0.0;
  PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_SINGULAR), "Gram analysis: G_00 = 0 is a breakdown (%s)", PPEGramStatuses[st]));

  /* asymmetry: seen anywhere in an exact block, only in the kept columns of a continued one */
  BuildGram(k, 0.11, 1.0, G);
  for (PetscInt i = 0; i < k * k; i++) H[i] = G[i];
  H[5 + k * 4] *= 1.001;
  PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
  PetscCall(
    TapCheck(comm, (PetscBool)(st == PPE_GRAM_NONSYMMETRIC && f.asym > 1e-6), "Gram analysis: G(5,4) = 1.001 G(4,5) is asymmetric (%s, want %s; asymmetry %.1e > 1e-6)", PPEGramStatuses[st], PPEGramStatuses[PPE_GRAM_NONSYMMETRIC], (double)f.asym));
  BuildGram(k, 0.004, 1.0, H);
  H[(k - 1) + k * (k - 2)] *= 1.001; /* in the dependent tail */
  PetscCall(PPEGramAnalyse(k, H, k, 1e6, PETSC_FALSE, &f, &st));
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_TRUNCATED), "Gram analysis: asymmetry in the cut tail of a continued block is ignored (%s, %" PetscInt_FMT " columns kept)", PPEGramStatuses[st], f.kuse));

  /* non-finite entries end the block before their column */
  for (PetscInt i = 0; i < k * k; i++) H[i] = G[i];
  H[2 + k * 5] = (PetscReal)INFINITY;
  PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_TRUNCATED && f.kuse == 5), "Gram analysis: an infinite entry in column 5 keeps columns 0..4 (%s, want %s; %" PetscInt_FMT " columns, want 5)", PPEGramStatuses[st],
                     PPEGramStatuses[PPE_GRAM_TRUNCATED], f.kuse));
  H[0] = (PetscReal)NAN;
  PetscCall(PPEGramAnalyse(k, H, k, 1e12, PETSC_TRUE, &f, &st));
  PetscCall(TapCheck(comm, (PetscBool)(st == PPE_GRAM_NANORINF), "Gram analysis: a non-finite first column is NaN/Inf (%s)", PPEGramStatuses[st]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Diagonal operator with known eigenvalues lam_i = lo + (hi - lo) i/(N-1) in PETSc order. */
static PetscErrorCode DiagonalOperator(MPI_Comm comm, PetscInt N, PetscReal lo, PetscReal hi, Mat *A)
{
  Vec      d;
  PetscInt rs, re;

  PetscFunctionBegin;
  PetscCall(VecCreateMPI(comm, PETSC_DECIDE, N, &d));
  PetscCall(VecGetOwnershipRange(d, &rs, &re));
  for (PetscInt i = rs; i < re; i++) PetscCall(VecSetValue(d, i, lo + (hi - lo) * i / (N - 1), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(d));
  PetscCall(VecAssemblyEnd(d));
  PetscCall(MatCreateAIJ(comm, re - rs, re - rs, N, N, 1, NULL, 0, NULL, A));
  PetscCall(MatDiagonalSet(*A, d, INSERT_VALUES));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckBasisAndEstimate(MPI_Comm comm)
{
  const PetscInt  N = 500, k = 9;
  const PetscReal lo = 1.0, hi = 100.0, lmin = 0.5, lmax = 110.0;
  Mat             A;
  PC              pc;
  Vec             r, Z[2], *S, *AS;
  PetscInt        rs, re;
  PetscReal       err = 0, eta = 2.0 / (lmax - lmin), zeta = (lmax + lmin) / (lmax - lmin);
  PPEEigEstimate  est;

  PetscFunctionBegin;
  PetscCall(DiagonalOperator(comm, N, lo, hi, &A));
  PetscCall(PCCreate(comm, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetUp(pc));
  PetscCall(MatCreateVecs(A, &r, NULL));
  PetscCall(VecDuplicate(r, &Z[0]));
  PetscCall(VecDuplicate(r, &Z[1]));
  PetscCall(VecDuplicateVecs(r, k, &S));
  PetscCall(VecDuplicateVecs(r, k, &AS));
  PetscCall(VecGetOwnershipRange(r, &rs, &re));
  for (PetscInt i = rs; i < re; i++) PetscCall(VecSetValue(r, i, 1.0 + 0.1 * PetscSinReal((PetscReal)i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(r));
  PetscCall(VecAssemblyEnd(r));
  PetscCall(PPECBCGBasis(A, pc, lmin, lmax, k, r, Z, S, AS));
  for (PetscInt j = 0; j < k; j++) {
    const PetscScalar *sa, *asa, *ra;
    PetscCall(VecGetArrayRead(S[j], &sa));
    PetscCall(VecGetArrayRead(AS[j], &asa));
    PetscCall(VecGetArrayRead(r, &ra));
    for (PetscInt i = rs; i < re; i++) {
      PetscReal lam = lo + (hi - lo) * i / (N - 1), t = eta * lam - zeta, Tj = PetscCosReal(j * PetscAcosReal(t));
      err = PetscMax(err, PetscAbsScalar(sa[i - rs] - Tj * ra[i - rs]) + PetscAbsScalar(asa[i - rs] - lam * Tj * ra[i - rs]) / lam);
    }
    PetscCall(VecRestoreArrayRead(S[j], &sa));
    PetscCall(VecRestoreArrayRead(AS[j], &asa));
    PetscCall(VecRestoreArrayRead(r, &ra));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &err, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscCall(TapCheck(comm, (PetscBool)(err < 1e-12), "Chebyshev basis: S_j = T_j(eta A - zeta) r and AS_j = A S_j for j < %" PetscInt_FMT " on a diagonal operator (error %.1e)", k, (double)err));

  PetscCall(PPECBCGEstimateEigenvalues(A, pc, NULL, r, 20, &est));
  PetscCall(TapCheck(comm, (PetscBool)(est.its == 20 && est.ritz_max <= hi * (1 + 1e-12) && est.ritz_max >= 0.98 * hi && est.ritz_min >= lo * (1 - 1e-12) && est.reductions == 2 * est.its),
                     "Lanczos estimate of [1, 100] in %" PetscInt_FMT " steps (want 20): Ritz values [%.4f, %.4f] inside (to 1e-12 relative), largest within 2%% (>= 98), %" PetscInt_FMT " reductions (want 2 per step)", est.its, (double)est.ritz_min,
                     (double)est.ritz_max, est.reductions));
  PetscCall(VecDestroyVecs(k, &S));
  PetscCall(VecDestroyVecs(k, &AS));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&Z[0]));
  PetscCall(VecDestroy(&Z[1]));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ritz values and the Newton basis on a diagonal operator with 5 eigenvalues: a basis of 6
   columns spans the whole invariant subspace of r, so the Ritz values of its leading 5 columns
   are the eigenvalues, and the Newton polynomial with them as roots annihilates r. */
static PetscErrorCode CheckRitzNewton(MPI_Comm comm)
{
  const PetscInt     N = 5, k = 6;
  const PetscReal    lo = 1.0, hi = 100.0;
  Mat                A;
  PC                 pc;
  Vec                r, Z[2], *S, *AS, *S2, *AS2;
  PetscInt           rs, re, m = 0, m2 = 0;
  PetscScalar        SAS[36];
  PetscReal          th[16], th2[16], e1 = 0, e2 = 0, e0 = 0, nlast, nr;
  PPEBasisRecurrence cheb, newt;

  PetscFunctionBegin;
  PetscCall(DiagonalOperator(comm, N, lo, hi, &A));
  PetscCall(PCCreate(comm, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetUp(pc));
  PetscCall(MatCreateVecs(A, &r, NULL));
  PetscCall(VecDuplicate(r, &Z[0]));
  PetscCall(VecDuplicate(r, &Z[1]));
  PetscCall(VecDuplicateVecs(r, k, &S));
  PetscCall(VecDuplicateVecs(r, k, &AS));
  PetscCall(VecDuplicateVecs(r, k, &S2));
  PetscCall(VecDuplicateVecs(r, k, &AS2));
  PetscCall(VecGetOwnershipRange(r, &rs, &re));
  for (PetscInt i = rs; i < re; i++) PetscCall(VecSetValue(r, i, 1.0 + 0.3 * i, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(r));
  PetscCall(VecAssemblyEnd(r));

  /* the recurrence form of the Chebyshev basis is the Chebyshev basis */
  PetscCall(PPECBCGRecurrenceChebyshev(0.5, 110.0, &cheb));
  PetscCall(PPECBCGBasisRecurrence(A, pc, &cheb, k, r, Z, S, AS));
  PetscCall(PPECBCGBasis(A, pc, 0.5, 110.0, k, r, Z, S2, AS2));
  for (PetscInt j = 0; j < k; j++) {
    PetscReal d;
    PetscCall(VecAXPY(S2[j], -1.0, S[j]));
    PetscCall(VecNorm(S2[j], NORM_INFINITY, &d));
    e0 = PetscMax(e0, d);
  }
  PetscCall(PPETSGram(k, S, k, AS, PPE_TS_MAXCOLS, SAS, 0, NULL));
  PetscCall(PPEGramRitz(k, SAS, k, &cheb, 1e12, &m, th));
  for (PetscInt i = 0; i < m; i++) e1 = PetscMax(e1, PetscAbsReal(th[i] - (lo + (hi - lo) * i / (N - 1))) / hi);
  PetscCall(TapCheck(comm, (PetscBool)(e0 == 0 && m == N && e1 < 1e-8),
                     "Ritz values from the Gram matrix of a Chebyshev block of %" PetscInt_FMT " columns (recurrence form equal to the basis: %.1e, want 0): %" PetscInt_FMT " values, the %" PetscInt_FMT " eigenvalues (want as many) to %.1e (< 1e-8)",
                     k, (double)e0, m, N, (double)e1));

  /* Newton basis with them as shifts: Leja order (largest first, then the farthest), and the
     last column prod (A - theta_i) r vanishes */
  PetscCall(PPECBCGRecurrenceNewton(m, th, &newt));
  PetscCall(PPECBCGBasisRecurrence(A, pc, &newt, k, r, Z, S2, AS2));
  PetscCall(VecNorm(S2[k - 1], NORM_2, &nlast));
  PetscCall(VecNorm(r, NORM_2, &nr));
  PetscCall(PPETSGram(k, S2, k, AS2, PPE_TS_MAXCOLS, SAS, 0, NULL));
  PetscCall(PPEGramRitz(k - 1, SAS, k, &newt, 1e12, &m2, th2)); /* leading 4 columns: 4 Ritz values inside the spectrum */
  for (PetscInt i = 0; i < m2; i++) e2 = (th2[i] < lo - 1e-8 || th2[i] > hi + 1e-8) ? 1 : e2;
  PetscCall(TapCheck(comm, (PetscBool)(PetscAbsReal(newt.b[0] / newt.a[0] - hi) < 1e-6 * hi && PetscAbsReal(newt.b[1] / newt.a[1] - lo) < 1e-6 * hi && newt.c[2] == 0 && nlast <= 1e-10 * nr && m2 == k - 2 && e2 == 0),
                     "Newton basis on the Ritz values: shifts in Leja order (%.4g, %.4g, ..., want %g, %g to 1e-6 of %g; third c %g, want 0), last column |prod (A - theta_i) r| = %.1e |r| (<= 1e-10), %" PetscInt_FMT
                     " Ritz values of its leading block (want %" PetscInt_FMT ") inside the spectrum (difference %.1e, want 0)",
                     (double)(newt.b[0] / newt.a[0]), (double)(newt.b[1] / newt.a[1]), (double)hi, (double)lo, (double)hi, (double)newt.c[2], (double)(nlast / nr), m2, k - 2, (double)e2));
  PetscCall(VecDestroyVecs(k, &S));
  PetscCall(VecDestroyVecs(k, &AS));
  PetscCall(VecDestroyVecs(k, &S2));
  PetscCall(VecDestroyVecs(k, &AS2));
  PetscCall(VecDestroy(&Z[0]));
  PetscCall(VecDestroy(&Z[1]));
  PetscCall(VecDestroy(&r));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm  comm;
  Vec      *X, *Y, *S, *AS, *Q2, *AQ2, x, r;
  PetscReal err = 0, e = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());

  /* Gram products: every width 1..18 against 1..18, band 1 and full, odd local sizes */
  PetscCall(MakeVecs(comm, 517, 18, 0, &X));
  PetscCall(MakeVecs(comm, 517, 18, 5, &Y));
  for (PetscInt nx = 1; nx <= 18; nx++)
    for (PetscInt ny = 1; ny <= 18; ny += (ny < 5 ? 1 : 4)) {
      PetscCall(CheckGram(nx, X, ny, Y, 1, &e));
      err = PetscMax(err, e);
      PetscCall(CheckGram(nx, X, ny, Y, PPE_TS_MAXCOLS, &e));
      err = PetscMax(err, e);
    }
  PetscCall(TapCheck(comm, (PetscBool)(err < 1e-14), "tall-skinny Gram x_a'y_b, 1..18 x 1..18 columns, band and full, with extra values in the same reduction: relative error %.1e", (double)err));

  /* S -= Q B (two stacked blocks, in place) and x += Q a, r -= AQ a against VecMAXPY */
  {
    PetscScalar    B[PPE_TS_MAXCOLS * PPE_CBCG_SMAX], a[PPE_CBCG_SMAX], *col;
    Vec            ref;
    PetscReal      ne = 0, nr;
    const PetscInt kq = 13, m = 10;
    for (PetscInt i = 0; i < kq * m; i++) B[i] = PetscSinReal(1.0 + i);
    for (PetscInt i = 0; i < kq; i++) a[i] = PetscCosReal(2.0 + i);
    PetscCall(MakeVecs(comm, 517, m, 9, &S));
    PetscCall(MakeVecs(comm, 517, m, 9, &AS));
    PetscCall(MakeVecs(comm, 517, m, 9, &Q2)); /* reference copies */
    PetscCall(MakeVecs(comm, 517, m, 9, &AQ2));
    PetscCall(PPETSCombine(kq, X, Y, m, S, AS, B));
    PetscCall(PetscMalloc1(kq, &col));
    for (PetscInt j = 0; j < m; j++) {
      for (PetscInt i = 0; i < kq; i++) col[i] = -B[i + kq * j];
      PetscCall(VecMAXPY(Q2[j], kq, col, X));
      PetscCall(VecMAXPY(AQ2[j], kq, col, Y));
      PetscCall(VecAXPY(Q2[j], -1.0, S[j]));
      PetscCall(VecAXPY(AQ2[j], -1.0, AS[j]));
      PetscCall(VecNorm(Q2[j], NORM_INFINITY, &nr));
      ne = PetscMax(ne, nr);
      PetscCall(VecNorm(AQ2[j], NORM_INFINITY, &nr));
      ne = PetscMax(ne, nr);
    }
    PetscCall(PetscFree(col));
    PetscCall(TapCheck(comm, (PetscBool)(ne < 1e-13), "block update S -= Q B in place (13 x 10 coefficients, padded tiles): error %.1e", (double)ne));
    PetscCall(VecDuplicate(X[0], &x));
    PetscCall(VecDuplicate(X[0], &r));
    PetscCall(VecDuplicate(X[0], &ref));
    PetscCall(VecSet(x, 1.0));
    PetscCall(VecSet(r, 2.0));
    PetscCall(PPETSAxpy(kq, X, Y, a, x, r));
    PetscCall(VecSet(ref, 1.0));
    PetscCall(VecMAXPY(ref, kq, a, X));
    PetscCall(VecAXPY(ref, -1.0, x));
    PetscCall(VecNorm(ref, NORM_INFINITY, &ne));
    PetscCall(VecSet(ref, 2.0));
    for (PetscInt i = 0; i < kq; i++) a[i] = -a[i];
    PetscCall(VecMAXPY(ref, kq, a, Y));
    PetscCall(VecAXPY(ref, -1.0, r));
    PetscCall(VecNorm(ref, NORM_INFINITY, &nr));
    PetscCall(TapCheck(comm, (PetscBool)(ne < 1e-13 && nr < 1e-13), "x += Q a, r -= AQ a in one pass: errors %.1e, %.1e (< 1e-13)", (double)ne, (double)nr));
    /* Chebyshev step, out aliasing zold */
    PetscCall(VecCopy(X[2], ref));
    PetscCall(PPETSCheb(3.0, X[0], 0.25, X[1], ref, ref));
    PetscCall(VecAXPY(ref, -3.0, X[0]));
    PetscCall(VecAXPY(ref, 0.25, X[1]));
    PetscCall(VecAXPY(ref, 1.0, X[2]));
    PetscCall(VecNorm(ref, NORM_INFINITY, &ne));
    PetscCall(TapCheck(comm, (PetscBool)(ne < 1e-14), "Chebyshev step out = c1 az - c2 z - zold in place: error %.1e", (double)ne));
    PetscCall(VecDestroy(&ref));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&r));
    PetscCall(VecDestroyVecs(m, &S));
    PetscCall(VecDestroyVecs(m, &AS));
    PetscCall(VecDestroyVecs(m, &Q2));
    PetscCall(VecDestroyVecs(m, &AQ2));
  }
  PetscCall(VecDestroyVecs(18, &X));
  PetscCall(VecDestroyVecs(18, &Y));

  PetscCall(CheckInstances(comm));
  PetscCall(CheckGramAnalysis(comm));
  PetscCall(CheckBasisAndEstimate(comm));
  PetscCall(CheckRitzNewton(comm));
  PetscCall(PetscFinalize());
  return 0;
}
