/*
   The small s x s problems of s-step CG: analysis and factorisation of a block's Gram
   matrix G = Q' A Q, and solves with it, through PETSc's LAPACK wrappers.

   G is equilibrated, Gh = D G D with D = diag(G)^-1/2 (the columns of a basis differ in
   scale; Gh has a unit diagonal), then:
     - entries that are not finite                     -> the block ends before that column
                                                          (PPE_GRAM_NANORINF if it is the first)
     - G_00 <= 0 (nothing usable), or a diagonal entry
       or an eigenvalue of Gh clearly below zero        -> PPE_GRAM_INDEFINITE / SINGULAR
       (clearly: below -PPE_GRAM_NEG_TOL times the largest, far beyond rounding)
     - cond(Gh) above the limit                         -> PPE_GRAM_TRUNCATED: the largest
       leading block within the limit is kept (its columns stay A-conjugate to the earlier
       blocks, so the method stays exact if the following blocks are no wider)
   the kept block is factored by Cholesky (potrf; a pivot failure shortens it further), and
     - q_i' A q_{i+1} and q_{i+1}' A q_i differ by more
       than PPE_GRAM_ASYM_TOL relative in it            -> PPE_GRAM_NONSYMMETRIC
*/
#include <ppekit/private/sstepimpl.h>

const char *const PPEGramStatuses[] = {"ok", "truncated", "indefinite", "nonsymmetric", "nan-or-inf", "singular", "PPEGramStatus", "PPE_GRAM_", NULL};

/* Eigenvalues (ascending) of the leading m x m block of the symmetric Gh (ld k). */
static PetscErrorCode LeadingEigenvalues(PetscInt k, const PetscScalar Gh[], PetscInt m, PetscReal w[])
{
  PetscScalar  a[PPE_CBCG_SMAX * PPE_CBCG_SMAX], work[4 * PPE_CBCG_SMAX];
  PetscBLASInt bm, lwork = 4 * PPE_CBCG_SMAX, info;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = 0; i < m; i++) a[i + m * j] = Gh[i + k * j];
  PetscCall(PetscBLASIntCast(m, &bm));
  PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "U", &bm, a, &bm, w, work, &lwork, &info));
  PetscCall(PetscFPTrapPop());
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev of a %" PetscInt_FMT " x %" PetscInt_FMT " Gram block failed: info %d", m, m, (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Largest relative difference of the neighbouring pairs G(i,i+1), G(i+1,i), i + 1 < m. */
static PetscErrorCode Asymmetry(const PetscScalar G[], PetscInt ldg, PetscInt m, PPEGramFactor *f)
{
  PetscFunctionBegin;
  f->asym = 0;
  for (PetscInt i = 0; i + 1 < m; i++) {
    PetscReal a = PetscAbsScalar(G[i + ldg * (i + 1)] - G[(i + 1) + ldg * i]) * f->d[i] * f->d[i + 1];
    f->asym     = PetscMax(f->asym, a);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal Cond(PetscInt m, const PetscReal w[])
{
  return w[0] > 0 ? w[m - 1] / w[0] : PETSC_INFINITY;
}

/*
   PPEGramAnalyse - analyse and factor the k x k Gram matrix G (column-major, leading
   dimension ldg; the upper triangle and the first subdiagonal are read) of a block

   Input Parameters:
+  k       - columns of the block (1..PPE_CBCG_SMAX)
.  G       - the Gram matrix
.  ldg     - its leading dimension
.  condmax - largest condition number of the equilibrated matrix accepted
-  exact   - G was computed from A S directly (a fresh block), so that an asymmetry anywhere is
             the operator's; otherwise only the kept columns are checked

   Output Parameters:
+  f  - the factorisation of the usable leading block (f->kuse columns) and diagnostics
-  st - the verdict (see PPEGramStatus)

   Not collective: every rank holds the same G after the reduction and reaches the same
   verdict.
*/
PetscErrorCode PPEGramAnalyse(PetscInt k, const PetscScalar G[], PetscInt ldg, PetscReal condmax, PetscBool exact, PPEGramFactor *f, PPEGramStatus *st)
{
  PetscScalar  Gh[PPE_CBCG_SMAX * PPE_CBCG_SMAX];
  PetscReal    w[PPE_CBCG_SMAX], dmax = 0;
  PetscInt     kpos, kfin             = k;
  PetscBLASInt bm, info;

  PetscFunctionBegin;
  PetscCheck(k >= 1 && k <= PPE_CBCG_SMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Gram matrix of %" PetscInt_FMT " columns: 1 to %d allowed", k, PPE_CBCG_SMAX);
  f->k         = k;
  f->kuse      = 0;
  f->cond      = PETSC_INFINITY;
  f->cond_full = PETSC_INFINITY;
  f->asym      = 0;
  f->eigmin    = 0;
  /* a column with a non-finite entry (a basis that overflowed) ends the usable block */
  for (PetscInt j = 0; j < kfin; j++) {
    for (PetscInt i = 0; i <= j; i++)
      if (PetscIsInfOrNanScalar(G[i + ldg * j])) kfin = PetscMin(kfin, j);
    if (j + 1 < k && PetscIsInfOrNanScalar(G[(j + 1) + ldg * j])) kfin = PetscMin(kfin, j + 1);
  }
  if (kfin == 0) {
    *st = PPE_GRAM_NANORINF;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < kfin; i++) dmax = PetscMax(dmax, PetscAbsScalar(G[i + ldg * i]));
  if (PetscRealPart(G[0]) <= 0) {
    *st = PetscRealPart(G[0]) < 0 ? PPE_GRAM_INDEFINITE : PPE_GRAM_SINGULAR;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 1; i < kfin; i++)
    if (PetscRealPart(G[i + ldg * i]) < -PPE_GRAM_NEG_TOL * dmax) {
      *st = PPE_GRAM_INDEFINITE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  for (kpos = 0; kpos < kfin && PetscRealPart(G[kpos + ldg * kpos]) > 0; kpos++) f->d[kpos] = 1.0 / PetscSqrtReal(PetscRealPart(G[kpos + ldg * kpos]));
  if (exact) { /* G = S' A S computed directly: every pair tells about A */
    PetscCall(Asymmetry(G, ldg, kpos, f));
    if (f->asym > PPE_GRAM_ASYM_TOL) {
      *st = PPE_GRAM_NONSYMMETRIC;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  for (PetscInt j = 0; j < kpos; j++)
    for (PetscInt i = 0; i <= j; i++) Gh[i + k * j] = Gh[j + k * i] = f->d[i] * G[i + ldg * j] * f->d[j];
  PetscCall(LeadingEigenvalues(k, Gh, kpos, w));
  f->eigmin = w[0];
  if (w[0] < -PPE_GRAM_NEG_TOL * w[kpos - 1]) {
    *st = PPE_GRAM_INDEFINITE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  f->cond = Cond(kpos, w);
  if (kpos == k) f->cond_full = f->cond;
  f->kuse = kpos;
  while (f->kuse > 1 && !(f->cond <= condmax)) {
    f->kuse--;
    PetscCall(LeadingEigenvalues(k, Gh, f->kuse, w));
    f->cond = Cond(f->kuse, w);
  }
  /* Cholesky of the kept block; a failed pivot (rounding at the edge) shortens it */
  for (;;) {
    for (PetscInt j = 0; j < f->kuse; j++)
      for (PetscInt i = 0; i < f->kuse; i++) f->L[i + f->kuse * j] = Gh[i + k * j];
    PetscCall(PetscBLASIntCast(f->kuse, &bm));
    PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("U", &bm, f->L, &bm, &info));
    if (info == 0) break;
    PetscCheck(info > 1, PETSC_COMM_SELF, PETSC_ERR_LIB, "Cholesky of an equilibrated Gram matrix failed at its unit first pivot: info %d", (int)info);
    f->kuse = info - 1;
    PetscCall(LeadingEigenvalues(k, Gh, f->kuse, w));
    f->cond = Cond(f->kuse, w);
  }
  /* symmetry of a continued block, on the kept columns only: in a numerically dependent tail
     the recursively updated A Q drifts from A times Q and would look asymmetric */
  if (!exact) PetscCall(Asymmetry(G, ldg, f->kuse, f));
  if (f->asym > PPE_GRAM_ASYM_TOL) *st = PPE_GRAM_NONSYMMETRIC;
  else *st = f->kuse == k ? PPE_GRAM_OK : PPE_GRAM_TRUNCATED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEGramSolve - b <- G^-1 b for the usable leading block of an analysed Gram matrix:
   nrhs columns of f->kuse entries, leading dimension ldb.
*/
PetscErrorCode PPEGramSolve(const PPEGramFactor *f, PetscInt nrhs, PetscScalar b[], PetscInt ldb)
{
  PetscBLASInt bm, bn, bld, info;

  PetscFunctionBegin;
  PetscCheck(f->kuse >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "No usable columns in this Gram matrix");
  for (PetscInt c = 0; c < nrhs; c++)
    for (PetscInt i = 0; i < f->kuse; i++) b[i + ldb * c] *= f->d[i];
  PetscCall(PetscBLASIntCast(f->kuse, &bm));
  PetscCall(PetscBLASIntCast(nrhs, &bn));
  PetscCall(PetscBLASIntCast(ldb, &bld));
  PetscCallBLAS("LAPACKpotrs", LAPACKpotrs_("U", &bm, &bn, f->L, &bm, b, &bld, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK potrs failed: info %d", (int)info);
  for (PetscInt c = 0; c < nrhs; c++)
    for (PetscInt i = 0; i < f->kuse; i++) b[i + ldb * c] *= f->d[i];
  PetscCall(PetscLogFlops(2.0 * f->kuse * f->kuse * nrhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEGramRitz - Ritz values of M^-1 A (self-adjoint in the A inner product) on the span of the
   leading basis columns S_0..S_{m-1}, from the Gram matrix SAS = S' A S of a block built by
   the recurrence rec: M^-1 A S_j = (S_{j+1} + b_j S_j + c_j S_{j-1}) / a_j, so
   S_i' A (M^-1 A S_j) is a combination of the entries of SAS and the Ritz values solve
   (SAS T) y = theta SAS y on the leading m = k - 1 columns (fewer while the equilibrated
   SAS has a condition number above condmax). No vector work, no reduction.

   Input Parameters:
+  k       - columns of the block (>= 2)
.  SAS     - S' A S, full symmetric, column-major with leading dimension ld
.  rec     - the recurrence the block was built with
-  condmax - largest condition number of the equilibrated leading block used

   Output Parameters:
+  m     - Ritz values found (0 when none could be)
-  theta - the Ritz values, ascending
*/
PetscErrorCode PPEGramRitz(PetscInt k, const PetscScalar SAS[], PetscInt ld, const PPEBasisRecurrence *rec, PetscReal condmax, PetscInt *m, PetscReal theta[])
{
  PetscScalar  H[PPE_CBCG_SMAX * PPE_CBCG_SMAX], Mh[PPE_CBCG_SMAX * PPE_CBCG_SMAX], work[4 * PPE_CBCG_SMAX];
  PetscReal    d[PPE_CBCG_SMAX], w[PPE_CBCG_SMAX];
  PetscInt     n = k - 1;
  PetscBLASInt bn, lwork = 4 * PPE_CBCG_SMAX, info, one = 1;

  PetscFunctionBegin;
  *m = 0;
  if (n < 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < k; i++) {
    if (!(PetscRealPart(SAS[i + ld * i]) > 0) || PetscIsInfOrNanScalar(SAS[i + ld * i])) {
      n = PetscMin(n, i);
      break;
    }
    d[i] = 1.0 / PetscSqrtReal(PetscRealPart(SAS[i + ld * i]));
  }
  for (PetscInt i = 0; i < k; i++)
    for (PetscInt j = 0; j < k; j++)
      if (PetscIsInfOrNanScalar(SAS[i + ld * j])) n = PetscMin(n, PetscMax(i, j) - 1);
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) Mh[i + n * j] = d[i] * SAS[i + ld * j] * d[j];
  /* shorten while the equilibrated Gram matrix is too ill-conditioned */
  while (n >= 1) {
    PetscCall(LeadingEigenvalues(n, Mh, n, w));
    if (w[0] > 0 && w[n - 1] <= condmax * w[0]) break;
    n--;
    for (PetscInt j = 0; j < n; j++) /* repack with leading dimension n */
      for (PetscInt i = 0; i < n; i++) Mh[i + n * j] = d[i] * SAS[i + ld * j] * d[j];
  }
  if (n < 1) PetscFunctionReturn(PETSC_SUCCESS);
  /* H(i, j) = d_i S_i' A M^-1 A S_j d_j, symmetrised */
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt i = 0; i < n; i++) {
      PetscScalar v = SAS[i + ld * (j + 1)] + rec->b[j] * SAS[i + ld * j];
      if (j > 0) v += rec->c[j] * SAS[i + ld * (j - 1)];
      H[i + n * j] = d[i] * v / rec->a[j] * d[j];
    }
  }
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < j; i++) H[i + n * j] = H[j + n * i] = 0.5 * (H[i + n * j] + H[j + n * i]);
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
  PetscCallBLAS("LAPACKsygv", LAPACKsygv_(&one, "N", "U", &bn, H, &bn, Mh, &bn, w, work, &lwork, &info));
  PetscCall(PetscFPTrapPop());
  if (info != 0) PetscFunctionReturn(PETSC_SUCCESS); /* no Ritz values: the caller keeps its basis */
  for (PetscInt i = 0; i < n; i++) theta[i] = w[i];
  *m = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}
