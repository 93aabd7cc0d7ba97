/*
   Errors found on some ranks of a collective operation, raised on all of them.
*/
#include <ppekit/private/ppeimpl.h>

/*
   PPERaiseCollective - every rank of comm raises the same error: the one of the lowest rank
   with code != 0, with that rank's message (msg is read on that rank only). Collective, so
   that bad input found on one rank never leaves the others waiting in a later collective; a
   no-op when no rank has an error.
*/
PetscErrorCode PPERaiseCollective(MPI_Comm comm, PetscErrorCode code, const char msg[])
{
  PetscMPIInt rank, size, first, mine;
  int         ecode = (int)code;
  char        text[1024];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  mine = code ? rank : size;
  PetscCall(MPIU_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(PETSC_SUCCESS);
  if (rank == first) PetscCall(PetscStrncpy(text, msg, sizeof(text)));
  PetscCallMPI(MPI_Bcast(text, (PetscMPIInt)sizeof(text), MPI_CHAR, first, comm));
  PetscCallMPI(MPI_Bcast(&ecode, 1, MPI_INT, first, comm));
  SETERRQ(comm, (PetscErrorCode)ecode, "%s", text);
}
