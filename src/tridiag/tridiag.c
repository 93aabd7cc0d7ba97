/*
   PPETridiag: creation, settings, options and viewing.

   Method:
     A batch of nsys tridiagonal systems split along a communicator by blocks of rows.
     Set-up (tdsetup.c, tdreduce.c, tdfactor.c) factors the coefficients once: the Thomas
     factors (one-rank batches), or the local reduction of every rank's block to its two
     boundary rows and the reduced systems (P-TDMA) or neighbour 2x2 systems (DistD2). A
     solve (tdsolve.c, tdexchange.c, on the back end's table and the arrays of tdarrays.c) then
     moves only right-hand-side values; tdcounts.c counts what it sends. Kernels:
     src/kernels/tridiag.h.

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025: P-TDMA, Algorithms 1-2.
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532): SZ-packed layout, DistD2,
     Table 3.
*/
#include <ppekit/private/tridiagimpl.h>
#include <ppekit/private/backendimpl.h>
#include <ppekit/private/gridimpl.h>
#include <backend/host/simd.h>

PetscClassId      PPETRIDIAG_CLASSID;
const char *const PPETridiagMethods[] = {"thomas", "ptdma", "distd2", "auto", "PPETridiagMethod", "PPE_TRIDIAG_", NULL};

/*@
   PPETridiagCreate - creates a batch of tridiagonal systems split along a communicator

   Collective

   Input Parameter:
.  comm - the ranks that share the lines, ordered by their blocks of rows (rank r owns
          the r-th block); PETSC_COMM_SELF for lines that live on one rank

   Output Parameter:
.  td - the batch

   Notes:
   Then PPETridiagSetSizes(), PPETridiagSetCoefficients() (or PPETridiagSetLineCoefficients()
   or PPETridiagSetZOperator()), optionally PPETridiagSetShift(), PPETridiagSetPeriodic(),
   PPETridiagSetPinnedLines(), PPETridiagSetFromOptions(), and PPETridiagSolve() as often as
   needed. Method auto, factors pre-computed, natural layout of a DMDA's z lines.

   Level: beginner

.seealso: PPETridiagSetSizes(), PPETridiagSolve(), PPETridiagDestroy()
@*/
PetscErrorCode PPETridiagCreate(MPI_Comm comm, PPETridiag *td)
{
  PPETridiag t;

  PetscFunctionBegin;
  PetscAssertPointer(td, 2);
  PetscCall(PPESysInitializePackage());
  PetscCall(PetscHeaderCreate(t, PPETRIDIAG_CLASSID, "PPETridiag", "Batched tridiagonal solver", "PPETridiag", comm, PPETridiagDestroy, PPETridiagView));
  PetscCallMPI(MPI_Comm_rank(comm, &t->rank));
  PetscCallMPI(MPI_Comm_size(comm, &t->size));
  t->nsys   = -1;
  t->m      = -1;
  t->ls     = 1;
  t->ks     = -1;
  t->method = PPE_TRIDIAG_AUTO;
  PetscCall(PetscStrncpy(t->methodopt, "-ppe_tridiag_method", sizeof(t->methodopt)));
  t->precompute = PETSC_TRUE;
  *td           = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free the coefficients as given. */
static PetscErrorCode PPETridiagFreeCoefficients(PPETridiag t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(t->a));
  PetscCall(PetscFree(t->b));
  PetscCall(PetscFree(t->c));
  PetscCall(PetscFree(t->w));
  PetscCall(PetscFree(t->shift));
  PetscCall(PetscFree(t->mask));
  PetscCall(PetscFree(t->pinned));
  t->coef_set  = PETSC_FALSE;
  t->has_shift = PETSC_FALSE;
  t->has_w     = PETSC_FALSE;
  t->npinned   = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagDestroy - destroys a batch

   Collective

   Input Parameter:
.  td - the batch (set to NULL)

   Level: beginner
@*/
PetscErrorCode PPETridiagDestroy(PPETridiag *td)
{
  PetscFunctionBegin;
  if (!td || !*td) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*td, PPETRIDIAG_CLASSID, 1);
  if (--((PetscObject)(*td))->refct > 0) {
    *td = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PPETridiagReset_Private(*td));
  PetscCall(PPETridiagFreeCoefficients(*td));
  PetscCall(PetscHeaderDestroy(td));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Any change of the systems asks for a new set-up at the next solve. */
static PetscErrorCode PPETridiagChanged(PPETridiag t)
{
  PetscFunctionBegin;
  if (t->setupcalled) PetscCall(PPETridiagReset_Private(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetSizes - sets the number of lines and the rows of this rank

   Logically Collective

   Input Parameters:
+  td   - the batch
.  nsys - number of lines, the same on every rank of the batch (>= 0)
-  m    - rows of this rank's block of every line (>= 2; may differ between ranks)

   Notes:
   Resets the coefficients, shift, pinned lines and natural strides. The global length is
   the sum of m over the ranks (PPETridiagGetSizes() after set-up).

   Level: beginner

.seealso: PPETridiagSetNaturalLayout(), PPETridiagSetCoefficients()
@*/
PetscErrorCode PPETridiagSetSizes(PPETridiag td, PetscInt nsys, PetscInt m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCheck(nsys >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The number of lines must be >= 0, got %" PetscInt_FMT, nsys);
  PetscCheck(m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The number of local rows must be >= 0 (and >= 2 at set-up), got %" PetscInt_FMT, m);
  PetscCall(PPETridiagChanged(td));
  PetscCall(PPETridiagFreeCoefficients(td));
  td->nsys   = nsys;
  td->m      = m;
  td->ng     = (nsys + PPE_TRIDIAG_SZ - 1) / PPE_TRIDIAG_SZ;
  td->ls     = 1;
  td->ks     = PetscMax(nsys, 1);
  td->ls_set = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetSizes - number of lines, rows of this rank and global rows

   Not Collective

   Output Parameters:
+  nsys - lines
.  m    - rows of this rank
-  n    - global rows (known after PPETridiagSetUp(), else -1)

   Level: beginner
@*/
PPE_OBJ_GETTER3(PPETridiagGetSizes, PPETridiag, td, PPETRIDIAG_CLASSID, PetscInt, nsys, td->nsys, m, td->m, n, td->setupcalled ? td->n : -1)

/*@
   PPETridiagSetNaturalLayout - strides of the natural layout: element (s,k) (line s, local
   row k) of the arrays given to PPETridiagSolve() and PPETridiagSetLineCoefficients() is at
   index s*ls + k*ks

   Logically Collective

   Input Parameters:
+  td - the batch
.  ls - line stride (>= 1)
-  ks - row stride (>= 1)

   Notes:
   The default, ls = 1 and ks = nsys, is the z lines of a DMDA-ordered local array (i fastest,
   then j, then k) with nsys = xm*ym. The strides must not make two elements share an index:
   ks >= ls*nsys or ls >= ks*m. The fast path solves lines with ls = 1 in place, SZ*G lanes at
   a time; other strides are correct but do not vectorise.

   Level: intermediate

.seealso: PPETridiagSolve(), PPETridiagPack()
@*/
PetscErrorCode PPETridiagSetNaturalLayout(PPETridiag td, PetscInt ls, PetscInt ks)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCheck(ls >= 1 && ks >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Natural layout strides must be >= 1, got line stride %" PetscInt_FMT " and row stride %" PetscInt_FMT, ls, ks);
  PetscCheck((PetscInt64)ks >= (PetscInt64)ls * td->nsys || (PetscInt64)ls >= (PetscInt64)ks * td->m, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
             "Natural layout strides overlap: line stride %" PetscInt_FMT " and row stride %" PetscInt_FMT " for %" PetscInt_FMT " lines of %" PetscInt_FMT " rows (need row stride >= line stride * lines, or line stride >= row stride * rows)", ls, ks,
             td->nsys, td->m);
  PetscCheck(!td->perline, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Set the natural layout before the per-line coefficients");
  td->ls     = ls;
  td->ks     = ks;
  td->ls_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetPeriodic - makes every line periodic: a of global row 0 couples the last
   unknown and c of the last global row couples the first

   Logically Collective

   Input Parameters:
+  td  - the batch
-  flg - PETSC_TRUE for periodic lines (default PETSC_FALSE: a of row 0 and c of row n-1 are ignored)

   Level: beginner
@*/
PPE_OBJ_SETTER(PPETridiagSetPeriodic, PPETridiag, td, PPETRIDIAG_CLASSID, PetscBool, flg, Bool, , periodic, PetscCall(PPETridiagChanged(td)))

/* Copy m (or per line) values, allocating the destination. */
static PetscErrorCode CopyRows(PetscInt m, const PetscReal src[], PetscReal **dst)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*dst));
  PetscCall(PetscMalloc1(PetscMax(m, 1), dst));
  PetscCall(PetscArraycpy(*dst, src, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetCoefficients - sets coefficients shared by all lines

   Logically Collective

   Input Parameters:
+  td - the batch
.  a  - m couplings to the previous row (a[0] of global row 0 is ignored unless periodic)
.  b  - m diagonal entries (the per-line shift is added, PPETridiagSetShift())
-  c  - m couplings to the next row (c[m-1] of the last global row is ignored unless periodic)

   Notes:
   The arrays are copied. Row k of the arrays is row k of this rank's block.

   Level: beginner

.seealso: PPETridiagSetLineCoefficients(), PPETridiagSetZOperator(), PPETridiagSetShift()
@*/
PetscErrorCode PPETridiagSetCoefficients(PPETridiag td, const PetscReal a[], const PetscReal b[], const PetscReal c[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCheck(a && b && c, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "PPETridiagSetCoefficients() needs the three arrays a, b and c");
  PetscCall(PPETridiagChanged(td));
  PetscCall(CopyRows(td->m, a, &td->a));
  PetscCall(CopyRows(td->m, b, &td->b));
  PetscCall(CopyRows(td->m, c, &td->c));
  td->perline  = PETSC_FALSE;
  td->coef_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetLineCoefficients - sets coefficients that differ from line to line

   Logically Collective

   Input Parameters:
+  td - the batch
.  a  - couplings to the previous row, element (s,k) at a[s*ls + k*ks] (the natural layout)
.  b  - diagonal entries, same layout
-  c  - couplings to the next row, same layout

   Notes:
   The values are copied (3 arrays of the size of the data, in the packed layout). Set the
   natural layout (PPETridiagSetNaturalLayout()) before.

   Level: intermediate

.seealso: PPETridiagSetCoefficients()
@*/
PetscErrorCode PPETridiagSetLineCoefficients(PPETridiag td, const PetscReal a[], const PetscReal b[], const PetscReal c[])
{
  const PetscReal *src[3] = {a, b, c};
  PetscReal      **dst[3];
  size_t           len;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCheck(a && b && c, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "PPETridiagSetLineCoefficients() needs the three arrays a, b and c");
  PetscCall(PPETridiagChanged(td));
  dst[0] = &td->a;
  dst[1] = &td->b;
  dst[2] = &td->c;
  len    = (size_t)td->ng * td->m * PPE_TRIDIAG_SZ;
  for (int j = 0; j < 3; j++) {
    PetscCall(PetscFree(*dst[j]));
    PetscCall(PetscCalloc1(PetscMax(len, 1), dst[j]));
    for (PetscInt s = 0; s < td->nsys; s++)
      for (PetscInt k = 0; k < td->m; k++) (*dst[j])[((size_t)(s / PPE_TRIDIAG_SZ) * td->m + k) * PPE_TRIDIAG_SZ + s % PPE_TRIDIAG_SZ] = src[j][(size_t)s * td->ls + (size_t)k * td->ks];
  }
  td->perline  = PETSC_TRUE;
  td->coef_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetShift - adds shift[s] * w[k] to the diagonal of row k of line s

   Logically Collective

   Input Parameters:
+  td    - the batch
.  shift - nsys shifts, one per line (NULL: none)
-  w     - m weights of this rank's rows (NULL: keep the current ones: all 1, or those of
           PPETridiagSetZOperator())

   Notes:
   The Poisson case after FFTs in x and y: shared z coefficients (S_z) and, per (kx,ky)
   line, shift = lambda_x + lambda_y + sigma with w = W_z. The arrays are copied.

   Level: intermediate

.seealso: PPETridiagSetCoefficients(), PPETridiagSetPinnedLines()
@*/
PetscErrorCode PPETridiagSetShift(PPETridiag td, const PetscReal shift[], const PetscReal w[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCall(PPETridiagChanged(td));
  PetscCall(PetscFree(td->shift));
  td->has_shift = shift ? PETSC_TRUE : PETSC_FALSE;
  if (shift) {
    PetscCall(PetscCalloc1(PetscMax(td->ng * PPE_TRIDIAG_SZ, 1), &td->shift));
    PetscCall(PetscArraycpy(td->shift, shift, td->nsys));
  }
  if (w) {
    PetscCall(CopyRows(td->m, w, &td->w));
    td->has_w = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetPinnedLines - lines whose matrix is singular on purpose (a consistent
   right-hand side): their last global unknown is set to zero and their last row dropped

   Logically Collective

   Input Parameters:
+  td    - the batch
.  npin  - number of pinned lines (the same on every rank)
-  lines - their indices (the same on every rank)

   Notes:
   For the zero mode of an all-Neumann or periodic Poisson problem (lambda_x + lambda_y +
   sigma = 0 with a singular z operator), as CaNS does when the last pivot vanishes. The
   result solves every row but the last global one, and differs from any other solution by
   a null vector of the line's matrix. Set-up checks that a pinned line is singular (its
   last pivot vanishes); a zero pivot in a line that is not pinned is an error.

   Level: intermediate

.seealso: PPETridiagSetShift()
@*/
PetscErrorCode PPETridiagSetPinnedLines(PPETridiag td, PetscInt npin, const PetscInt lines[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PPETridiagCheckSizes(td);
  PetscCheck(npin >= 0 && npin <= td->nsys, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of pinned lines %" PetscInt_FMT " must be in [0, %" PetscInt_FMT "]", npin, td->nsys);
  PetscCall(PPETridiagChanged(td));
  PetscCall(PetscFree(td->pinned));
  PetscCall(PetscMalloc1(PetscMax(npin, 1), &td->pinned));
  for (PetscInt i = 0; i < npin; i++) {
    PetscCheck(lines[i] >= 0 && lines[i] < td->nsys, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Pinned line %" PetscInt_FMT " is not a line: the batch has lines 0..%" PetscInt_FMT, lines[i], td->nsys - 1);
    td->pinned[i] = lines[i];
  }
  PetscCall(PetscSortRemoveDupsInt(&npin, td->pinned));
  td->npinned = npin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetZOperator - sets the shared coefficients to this rank's rows of a grid's
   symmetric z operator S_z (couplings -tlo, -thi, diagonal d; docs/conventions.md), the shift
   weights to W_z and the periodicity to the grid's z boundary conditions

   Logically Collective

   Input Parameters:
+  td   - the batch (sizes set, m = zm)
.  grid - a set-up grid
.  zs   - first global z index of this rank's rows
-  zm   - number of rows (must equal the batch's m)

   Notes:
   The per-line shift (lambda_x + lambda_y + sigma for the Poisson solve after FFTs in x and y)
   is given with PPETridiagSetShift(td, shift, NULL) afterwards, which keeps these weights.

   Level: intermediate

.seealso: PPETridiagSetShift(), PPEGridGetEigenvalues()
@*/
PetscErrorCode PPETridiagSetZOperator(PPETridiag td, PPEGrid grid, PetscInt zs, PetscInt zm)
{
  PPEGrid1d *z;
  PetscReal *a, *b, *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 2);
  PPETridiagCheckSizes(td);
  PetscCheck(grid->setupcalled, PetscObjectComm((PetscObject)grid), PETSC_ERR_ORDER, "Call PPEGridSetUp() before PPETridiagSetZOperator()");
  z = &grid->dir[2];
  PetscCheck(zm == td->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The z rows given (%" PetscInt_FMT ") differ from the batch's local rows m = %" PetscInt_FMT, zm, td->m);
  PetscCheck(zs >= 0 && zs + zm <= z->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "z rows [%" PetscInt_FMT ", %" PetscInt_FMT ") are outside the grid's 0..%" PetscInt_FMT, zs, zs + zm, z->n - 1);
  PetscCall(PetscMalloc3(zm, &a, zm, &b, zm, &c));
  for (PetscInt k = 0; k < zm; k++) {
    a[k] = -z->tlo[zs + k];
    b[k] = z->d[zs + k];
    c[k] = -z->thi[zs + k];
  }
  PetscCall(PPETridiagSetCoefficients(td, a, b, c));
  PetscCall(PetscFree3(a, b, c));
  PetscCall(CopyRows(zm, z->w + zs, &td->w));
  td->has_w = PETSC_TRUE;
  PetscCall(PPETridiagSetPeriodic(td, (PetscBool)(z->bc[0] == PPE_BC_PERIODIC)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetMethod - how the lines are solved

   Logically Collective

   Input Parameters:
+  td     - the batch
-  method - PPE_TRIDIAG_THOMAS, PPE_TRIDIAG_PTDMA, PPE_TRIDIAG_DISTD2 or PPE_TRIDIAG_AUTO (default)

   Options Database Key:
.  -ppe_tridiag_method <thomas,ptdma,distd2,auto> - the method

   Notes:
   thomas needs a one-rank batch; distd2 fails at set-up, saying which line, when it would
   drop a coupling that is not negligible; auto never does.

   Level: beginner

.seealso: PPETridiagMethod, PPETridiagGetLineMethods()
@*/
PPE_OBJ_SETTER(PPETridiagSetMethod, PPETridiag, td, PPETRIDIAG_CLASSID, PPETridiagMethod, method, Enum,
               PetscCheck(method >= PPE_TRIDIAG_THOMAS && method <= PPE_TRIDIAG_AUTO, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown tridiagonal method %d: use thomas, ptdma, distd2 or auto", (int)method), method,
               PetscCall(PPETridiagChanged(td)))

/*@
   PPETridiagGetMethod - the method asked for

   Not Collective

   Level: beginner
@*/
PPE_OBJ_GETTER(PPETridiagGetMethod, PPETridiag, td, PPETRIDIAG_CLASSID, PPETridiagMethod, method, , td->method)

/*@
   PPETridiagSetPrecompute - whether set-up stores the factors of the local eliminations of
   every line (Diez, Peeters and Costa (2025), Algorithm 2) or the solve recomputes them
   (Algorithm 1)

   Logically Collective

   Input Parameters:
+  td  - the batch
-  flg - PETSC_TRUE (default): pre-computed; PETSC_FALSE: recomputed at each solve

   Options Database Key:
.  -ppe_tridiag_precompute <0,1> - pre-compute the factors

   Notes:
   With coefficients shared by all lines and no shift the factors take O(m) memory either way.
   With a per-line shift or per-line coefficients they take 1 (thomas), 2 (periodic thomas) or
   3 (ptdma, distd2) arrays of the size of the data; without pre-computation the solve does a
   division per point (and the reconstruction a second elimination) instead of reading them.
   The reduced systems (O(nsys P) values) are always factored at set-up, so the data moved
   per solve is the same.

   Level: intermediate

.seealso: PPETridiagSetMethod()
@*/
PPE_OBJ_SETTER(PPETridiagSetPrecompute, PPETridiag, td, PPETRIDIAG_CLASSID, PetscBool, flg, Bool, , precompute, PetscCall(PPETridiagChanged(td)))

/*@
   PPETridiagGetPrecompute - whether the per-line factors are pre-computed

   Not Collective

   Level: intermediate
@*/
PPE_OBJ_GETTER(PPETridiagGetPrecompute, PPETridiag, td, PPETRIDIAG_CLASSID, PetscBool, flg, , td->precompute)

/*@
   PPETridiagSetOptionsPrefix - prefix of the batch's options (e.g. "pc_fftptdma_" gives
   -pc_fftptdma_ppe_tridiag_method)

   Logically Collective

   Level: intermediate
@*/
PetscErrorCode PPETridiagSetOptionsPrefix(PPETridiag td, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)td, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetFromOptions - reads the batch's options

   Collective

   Options Database Keys:
+  -ppe_tridiag_method <thomas,ptdma,distd2,auto> - the method (PPETridiagSetMethod())
.  -ppe_tridiag_precompute <0,1> - pre-compute the per-line factors (PPETridiagSetPrecompute())
-  -ppe_tridiag_view - view the batch after set-up (PPETridiagView())

   Level: beginner
@*/
PetscErrorCode PPETridiagSetFromOptions(PPETridiag td)
{
  PPETridiagMethod method;
  PetscBool        pre, flg;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  method = td->method;
  pre    = td->precompute;
  PetscObjectOptionsBegin((PetscObject)td);
  PetscOptionsHeadBegin(PetscOptionsObject, "PPETridiag options");
  PetscCall(PetscOptionsEnum("-ppe_tridiag_method", "Tridiagonal method: thomas (one rank), ptdma, distd2 (dominant lines), auto", "PPETridiagSetMethod", PPETridiagMethods, (PetscEnum)method, (PetscEnum *)&method, &flg));
  if (flg) PetscCall(PPETridiagSetMethod(td, method));
  PetscCall(PetscOptionsBool("-ppe_tridiag_precompute", "Pre-compute the per-line factors at set-up (else recompute them at each solve)", "PPETridiagSetPrecompute", pre, &pre, &flg));
  if (flg) PetscCall(PPETridiagSetPrecompute(td, pre));
  PetscCall(PetscOptionsName("-ppe_tridiag_view", "View the batch after set-up", "PPETridiagView", NULL));
  PetscOptionsHeadEnd();
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetUp - checks the systems, factors them and plans the communication

   Collective

   Notes:
   Bad input fails on every rank of the batch with the same message: fewer than 2 rows on a
   rank, different numbers of lines, missing or non-finite coefficients, a zero pivot in a line
   that is not pinned, a pinned line that is not singular, thomas on several ranks, distd2 on
   a line where it is not exact. Called by the first solve when needed.

   Level: beginner

.seealso: PPETridiagSolve()
@*/
PetscErrorCode PPETridiagSetUp(PPETridiag td)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  if (td->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(PPE_TridiagSetUp, td, 0, 0, 0));
  PetscCall(PPETridiagSetUp_Private(td));
  PetscCall(PetscLogEventEnd(PPE_TridiagSetUp, td, 0, 0, 0));
  td->setupcalled = PETSC_TRUE;
  PetscCall(PPETridiagViewFromOptions(td, NULL, "-ppe_tridiag_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagView - prints the batch: sizes, layout, coefficients, method per line, memory of
   the factors, communication per solve

   Collective

   Level: beginner
@*/
PetscErrorCode PPETridiagView(PPETridiag td, PetscViewer viewer)
{
  PetscBool iascii;
  PetscInt  mmin, mmax;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)td), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  {
    const char *prefix;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)td, &prefix));
    PetscCall(PetscViewerASCIIPrintf(viewer, "PPETridiag Object: %s%s%d MPI process%s\n", prefix ? prefix : "", prefix ? " " : "", (int)td->size, td->size > 1 ? "es" : ""));
  }
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(MPIU_Allreduce(&td->m, &mmin, 1, MPIU_INT, MPI_MIN, PetscObjectComm((PetscObject)td)));
  PetscCall(MPIU_Allreduce(&td->m, &mmax, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)td)));
  if (td->setupcalled) PetscCall(PetscViewerASCIIPrintf(viewer, "lines: %" PetscInt_FMT ", global length %" PetscInt_FMT "%s, rows per rank %" PetscInt_FMT " to %" PetscInt_FMT "\n", td->nsys, td->n, td->periodic ? " (periodic)" : "", mmin, mmax));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "lines: %" PetscInt_FMT "%s, rows per rank %" PetscInt_FMT " to %" PetscInt_FMT " (not set up)\n", td->nsys, td->periodic ? " (periodic)" : "", mmin, mmax));
  PetscCall(PetscViewerASCIIPrintf(viewer, "natural layout: line stride %" PetscInt_FMT ", row stride %" PetscInt_FMT "; packed layout: %d lines interleaved\n", td->ls, td->ks, PPE_TRIDIAG_SZ));
  PetscCall(PetscViewerASCIIPrintf(viewer, "coefficients: %s%s%s\n", td->perline ? "per line" : "shared by all lines", td->has_shift ? ", per-line shift" : "", td->has_shift ? (td->has_w ? " times row weights" : " (unit weights)") : ""));
  if (td->npinned) PetscCall(PetscViewerASCIIPrintf(viewer, "pinned singular lines: %" PetscInt_FMT " (last unknown set to 0)\n", td->npinned));
  PetscCall(PetscViewerASCIIPrintf(viewer, "method: %s\n", PPETridiagMethods[td->method]));
  if (td->setupcalled) {
    PetscLogDouble bytes, msgs;
    int            nfact = td->mode == PPE_TD_MODE_SHARED ? 0 : (td->ip ? 1 : 0) + (td->q ? 1 : 0) + (td->al ? 1 : 0) + (td->be ? 1 : 0);

    PetscCall(PetscViewerASCIIPrintf(viewer, "lines solved by thomas: %" PetscInt_FMT ", ptdma: %" PetscInt_FMT ", distd2: %" PetscInt_FMT "\n", td->nthomas, td->nptdma, td->ndistd2));
    if (!td->precompute) PetscCall(PetscViewerASCIIPrintf(viewer, "local factors: recomputed at each solve (Algorithm 1)\n"));
    else if (nfact) PetscCall(PetscViewerASCIIPrintf(viewer, "local factors: pre-computed per line, %d arrays of the size of the data\n", nfact));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "local factors: pre-computed, shared by all lines\n"));
    if (td->nptdma) PetscCall(PetscViewerASCIIPrintf(viewer, "reduced systems: %" PetscInt_FMT " unknowns each, %" PetscInt_FMT " of them solved on rank 0\n", td->red.nr, td->red.nown));
    PetscCall(PPETridiagGetCommModel(td, &bytes, &msgs));
    PetscCall(PetscViewerASCIIPrintf(viewer, "communication per solve on rank 0: %.0f bytes in %.0f message%s\n", (double)bytes, (double)msgs, msgs == 1 ? "" : "s"));
    if (td->backend == PPE_BACKEND_HOST) PetscCall(PetscViewerASCIIPrintf(viewer, "kernels: %s\n", PPEHostHasAVX2() ? "AVX2" : "generic"));
    PetscCall(PPEBackendView(td->backend, viewer));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagViewFromOptions - views the batch if the option is set

   Collective

   Level: intermediate
@*/
PetscErrorCode PPETridiagViewFromOptions(PPETridiag td, PetscObject obj, const char name[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCall(PetscObjectViewFromOptions((PetscObject)td, obj, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETridiagSetMethodOptionName - (developer) the option that errors about the method name,
   for a batch owned by another object (PC fftptdma: "-pc_fftptdma_zsolve"); the default is
   "-ppe_tridiag_method"
*/
PetscErrorCode PPETridiagSetMethodOptionName(PPETridiag td, const char name[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCall(PetscStrncpy(td->methodopt, name, sizeof(td->methodopt)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagSetBackend - where the solves run: the host, or a device back end (coefficients
   and factors are copied to the device at set-up and stay there; data are copied in and out
   at each solve)

   Logically Collective

   Input Parameters:
+  td - the batch
-  b  - PPE_BACKEND_HOST, PPE_BACKEND_CUDA, PPE_BACKEND_HIP or PPE_BACKEND_EMU

   Notes:
   Without this call the set-up takes -ppe_backend (PPEBackendGetDefault()). A back end
   that was not built, or without a device, is an error at set-up.

   Level: intermediate

.seealso: PPEBackend, PPEBackendGetDefault()
@*/
PetscErrorCode PPETridiagSetBackend(PPETridiag td, PPEBackend b)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCall(PPETridiagChanged(td));
  td->backend     = b;
  td->backend_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
