/*
   PPETridiag counters: the lines each method solves, what the solves sent to other ranks, and
   what one solve should send by the model of its methods (queries after set-up).
*/
#include <ppekit/private/tridiagimpl.h>

/*@
   PPETridiagGetLineMethods - how many lines each method solves (after set-up)

   Not Collective

   Output Parameters:
+  nthomas - lines solved by thomas
.  nptdma  - lines solved by ptdma
-  ndistd2 - lines solved by distd2

   Level: intermediate
@*/
PetscErrorCode PPETridiagGetLineMethods(PPETridiag td, PetscInt *nthomas, PetscInt *nptdma, PetscInt *ndistd2)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCheck(td->setupcalled, PetscObjectComm((PetscObject)td), PETSC_ERR_ORDER, "Call PPETridiagSetUp() first");
  if (nthomas) *nthomas = td->nthomas;
  if (nptdma) *nptdma = td->nptdma;
  if (ndistd2) *ndistd2 = td->ndistd2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetCommCounts - what this rank's solves sent to other ranks since set-up (or the
   last PPETridiagResetCommCounts())

   Not Collective

   Output Parameters:
+  nsolves  - solves
.  bytes    - bytes sent to other ranks (the rank's own share of an all-to-all excluded)
-  messages - messages sent to other ranks (non-empty all-to-all blocks and point-to-point sends)

   Notes:
   Counted from the counts handed to MPI. Set-up communication is not included. PETSc's own
   counters (PPECountersGet()) also see these calls; they count an all-to-all's block to the
   rank itself too.

   Level: intermediate

.seealso: PPETridiagGetCommModel(), PPECountersGet()
@*/
PetscErrorCode PPETridiagGetCommCounts(PPETridiag td, PetscInt *nsolves, PetscLogDouble *bytes, PetscLogDouble *messages)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  if (nsolves) *nsolves = td->nsolves;
  if (bytes) *bytes = td->bytes;
  if (messages) *messages = td->msgs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagResetCommCounts - zeroes the counters of PPETridiagGetCommCounts()

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPETridiagResetCommCounts(PPETridiag td)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  td->nsolves = 0;
  td->bytes   = 0;
  td->msgs    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPETridiagGetCommModel - bytes and messages one solve should send from this rank, by the
   model of the method (after set-up)

   Not Collective

   Output Parameters:
+  bytes    - ptdma: 2 values per line out to the owners of the reduced systems and 2 back,
              for the lines whose reduced systems other ranks own; distd2: 1 value per line
              to each neighbour rank
-  messages - ptdma: 2 per other rank owning some reduced systems (there and back); distd2:
              1 per neighbour rank

   Level: intermediate

.seealso: PPETridiagGetCommCounts()
@*/
PetscErrorCode PPETridiagGetCommModel(PPETridiag td, PetscLogDouble *bytes, PetscLogDouble *messages)
{
  PetscLogDouble b = 0, msg = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(td, PPETRIDIAG_CLASSID, 1);
  PetscCheck(td->setupcalled, PetscObjectComm((PetscObject)td), PETSC_ERR_ORDER, "Call PPETridiagSetUp() first");
  if (td->nptdma && td->size > 1) {
    /* out: my 2 values of every line whose reduced system another rank owns */
    for (PetscMPIInt q = 0; q < td->size; q++) {
      PetscInt lo = (PetscInt)(((PetscInt64)q * td->red.np) / td->size), hi = (PetscInt)(((PetscInt64)(q + 1) * td->red.np) / td->size);

      if (q == td->rank || hi == lo) continue;
      b += 2.0 * sizeof(PetscScalar) * (hi - lo);
      msg += 1;
    }
    /* back: the 2 solved values of each line I own, to every other rank */
    if (td->red.nown) {
      b += 2.0 * sizeof(PetscScalar) * td->red.nown * (td->size - 1);
      msg += td->size - 1;
    }
  }
  if (td->ndistd2) {
    if (td->d2.prev != MPI_PROC_NULL && td->d2.prev != td->rank) {
      b += sizeof(PetscScalar) * td->ndistd2;
      msg += 1;
    }
    if (td->d2.next != MPI_PROC_NULL && td->d2.next != td->rank) {
      b += sizeof(PetscScalar) * td->ndistd2;
      msg += 1;
    }
  }
  if (bytes) *bytes = b;
  if (messages) *messages = msg;
  PetscFunctionReturn(PETSC_SUCCESS);
}
