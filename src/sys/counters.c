/*
   Communication counters: PETSc's own MPI counters (its headers wrap the MPI calls
   of PETSc and of PPEKit), the number of ghost updates, read from the log
   events of VecScatter and PetscSF, and the bytes between host and device memory counted
   by the device back ends' tables (src/sys/backend.c).
*/
#include <ppekit/private/backendimpl.h>

/* Calls of an event so far in the current stage (0 when logging is off). */
static PetscErrorCode EventCount(const char name[], PetscLogDouble *count)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;
  PetscBool          active;

  PetscFunctionBegin;
  *count = 0;
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetId(name, &ev));
  if (ev < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
  *count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPECountersGet - snapshot of this rank's cumulative communication counters

   Not Collective

   Output Parameter:
.  c - the counters (see PPECounters)

   Notes:
   Ghost updates are counted from the log events VecScatterBegin, SFBcastBegin and
   SFReduceBegin of the current log stage, so PETSc's default log handler must be on
   (PetscLogDefaultBegin() or -log_view) and both snapshots taken in the same stage.

   Level: intermediate

.seealso: PPECountersDiff()
@*/
PetscErrorCode PPECountersGet(PPECounters *c)
{
  PetscLogDouble v, b, r;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->reductions = petsc_allreduce_ct;
  c->bytes_sent = petsc_send_len + petsc_isend_len;
  PetscCall(EventCount("VecScatterBegin", &v));
  PetscCall(EventCount("SFBcastBegin", &b));
  PetscCall(EventCount("SFReduceBegin", &r));
  c->halo_exchanges    = v + b + r;
  c->device_bytes      = PPEDeviceBytes();
  c->device_halo_bytes = PPEDeviceHaloBytes();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPECountersDiff - c = after - before

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPECountersDiff(const PPECounters *after, const PPECounters *before, PPECounters *c)
{
  PetscFunctionBegin;
  c->reductions        = after->reductions - before->reductions;
  c->halo_exchanges    = after->halo_exchanges - before->halo_exchanges;
  c->bytes_sent        = after->bytes_sent - before->bytes_sent;
  c->device_bytes      = after->device_bytes - before->device_bytes;
  c->device_halo_bytes = after->device_halo_bytes - before->device_halo_bytes;
  PetscFunctionReturn(PETSC_SUCCESS);
}
