/*
   Back-end selection: which back end runs the kernels (host, cuda, hip, or emu, the host
   emulation of the device launch code), whether it was built, whether a device is there,
   and which device each rank uses (node-local rank modulo the devices of the node).

   A back end that was not built is an error naming the configure option; a device back end
   without a usable device is an error with the runtime's own message (never a crash). The
   default, "auto", is the first device back end built that has a device, else the host.

   Also the host's own choice, the instruction set of its loops: PPEHostHasAVX2(), the CPU
   test of every host back end (src/backend/host/simd.h).
*/
#include <ppekit/private/backendimpl.h>
#include <backend/host/simd.h>

const char *const PPEBackends[] = {"host", "cuda", "hip", "emu", "PPEBackend", "PPE_BACKEND_", NULL};

/* What was found out about each back end, once per process. */
typedef struct {
  PetscBool local; /* runs on every rank's host: no device to find or agree on */
  PetscBool checked;
  int       rc;   /* 0, or the error of the device count */
  int       ndev; /* devices visible */
  int       dev;  /* the device this rank uses */
  char      name[256];
} PPEBackendState;

static PPEBackendState ppe_backend_state[4] = {
  [PPE_BACKEND_HOST] = {.local = PETSC_TRUE,    .checked = PETSC_TRUE, .ndev = 1                                      },
  [PPE_BACKEND_EMU]  = { .local = PETSC_TRUE, .checked = PETSC_TRUE,             .ndev = 1, .name = "host emulation of the device launches"},
};

/* The table of back end b, NULL for a device back end that was not built. */
static const PPEBackendOps *Table(PPEBackend b)
{
  switch (b) {
  case PPE_BACKEND_HOST:
    return &PPEBackendOps_Host;
  case PPE_BACKEND_EMU:
    return &PPEBackendOps_Emu;
#if PPEKIT_HAVE_CUDA
  case PPE_BACKEND_CUDA:
    return &PPEBackendOps_CUDA;
#endif
#if PPEKIT_HAVE_HIP
  case PPE_BACKEND_HIP:
    return &PPEBackendOps_HIP;
#endif
  default:
    return NULL;
  }
}

/* Copies made between PPEDeviceCountHalo(PETSC_TRUE) and (PETSC_FALSE) are halo traffic
   (PPECounters.device_halo_bytes), not vector copies: the device back ends count both
   (ppe_dev_traffic_count, src/backend/device/device.h). */
void PPEDeviceCountHalo(PetscBool halo)
{
  ppe_dev_traffic_count.halo = halo ? 1 : 0;
}

PetscLogDouble PPEDeviceHaloBytes(void)
{
  return ppe_dev_traffic_count.halo_bytes;
}

PetscLogDouble PPEDeviceBytes(void)
{
  return ppe_dev_traffic_count.bytes;
}

/* The names of the back ends in messages, and the configure options that build them. */
static const char *const BackendTitles[]    = {"host", "CUDA", "HIP", "emulated"};
static const char *const ConfigureOptions[] = {"", "--with-cuda", "--with-hip", ""};

/* Count the devices of a built back end and choose this rank's, once. */
static PetscErrorCode Probe(MPI_Comm comm, PPEBackend b, PPEBackendState **st)
{
  PPEBackendState     *s   = &ppe_backend_state[b];
  const PPEBackendOps *ops = Table(b);

  PetscFunctionBegin;
  *st = s;
  if (s->checked || !ops) PetscFunctionReturn(PETSC_SUCCESS);
  s->checked = PETSC_TRUE;
  s->rc      = ops->count(&s->ndev);
  if (!s->rc && s->ndev > 0) {
    MPI_Comm    node;
    PetscMPIInt nrank;

    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_rank(node, &nrank));
    PetscCallMPI(MPI_Comm_free(&node));
    s->dev = nrank % s->ndev;
    s->rc  = ops->select(s->dev);
    if (!s->rc) s->rc = ops->device_name(s->dev, s->name, sizeof(s->name));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PPEBackendFromString - the back end of a name: host, cuda, hip or emu

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPEBackendFromString(MPI_Comm comm, const char name[], PPEBackend *b)
{
  PetscBool match;

  PetscFunctionBegin;
  for (int i = 0; i < 4; i++) {
    PetscCall(PetscStrcasecmp(name, PPEBackends[i], &match));
    if (match) {
      *b = (PPEBackend)i;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown back end \"%s\": use auto, host, cuda, hip or emu", name);
}

/*@
   PPEBackendCheck - errors unless back end b can run here: built into this PPEKit (cuda,
   hip), with a usable device on every rank

   Collective

   Level: intermediate
@*/
PetscErrorCode PPEBackendCheck(MPI_Comm comm, PPEBackend b)
{
  PPEBackendState     *s;
  const PPEBackendOps *ops = Table(b);
  PetscMPIInt          bad, anybad;

  PetscFunctionBegin;
  if (ppe_backend_state[b].local) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ops, comm, PETSC_ERR_SUP, "PPEKit was built without the %s back end: configure PPEKit with %s to use -ppe_backend %s", BackendTitles[b], ConfigureOptions[b], PPEBackends[b]);
  PetscCall(Probe(comm, b, &s));
  bad = (s->rc || s->ndev < 1) ? 1 : 0;
  PetscCall(MPIU_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm));
  if (anybad) {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_SUP, "-ppe_backend %s: no usable %s device on rank %d: %s (error %d)", PPEBackends[b], PPEBackends[b], (int)rank, s->rc ? ops->errstr(s->rc) : "the runtime reports 0 devices", s->rc);
    SETERRQ(comm, PETSC_ERR_SUP, "-ppe_backend %s: no usable device on some rank (see its message)", PPEBackends[b]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEBackendGetDefault - the back end chosen by -ppe_backend, checked; "auto" (the default)
   is the first device back end built with a device on every rank (cuda, then hip), else host

   Collective

   Options Database Key:
.  -ppe_backend <auto,host,cuda,hip,emu> - where the kernels run

   Level: intermediate
@*/
PetscErrorCode PPEBackendGetDefault(MPI_Comm comm, PPEBackend *b)
{
  char      name[16] = "auto";
  PetscBool set, isauto;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ppe_backend", name, sizeof(name), &set));
  PetscCall(PetscStrcasecmp(name, "auto", &isauto));
  if (!isauto) {
    PetscCall(PPEBackendFromString(comm, name, b));
    PetscCall(PPEBackendCheck(comm, *b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *b = PPE_BACKEND_HOST;
  for (PPEBackend c = PPE_BACKEND_CUDA; c <= PPE_BACKEND_HIP; c = (PPEBackend)(c + 1)) {
    PPEBackendState *s;
    PetscMPIInt      ok, allok;

    if (!Table(c)) continue;
    PetscCall(Probe(comm, c, &s));
    ok = (!s->rc && s->ndev > 0) ? 1 : 0;
    PetscCall(MPIU_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
    if (allok) {
      *b = c;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
   PPEBackendGetDeviceName - the device this rank uses with back end b ("" for the host)

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPEBackendGetDeviceName(PPEBackend b, char name[], size_t len)
{
  PPEBackendState *s = &ppe_backend_state[b];

  PetscFunctionBegin;
  name[0] = 0;
  if (s->checked && !s->rc && s->name[0]) PetscCall(PetscSNPrintf(name, len, "device %d of %d: %s", s->dev, s->ndev, s->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendGetOps(PPEBackend b, const PPEBackendOps **ops)
{
  PetscFunctionBegin;
  *ops = Table(b);
  PetscCheck(*ops, PETSC_COMM_SELF, PETSC_ERR_SUP, "PPEKit was built without the %s back end: configure PPEKit with %s", BackendTitles[b], ConfigureOptions[b]);
  PetscCheck(ppe_backend_state[b].checked, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call PPEBackendCheck() before using back end %s", PPEBackends[b]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendIsBuilt(PPEBackend b, const PPEBackendOps **ops)
{
  PetscFunctionBegin;
  *ops = Table(b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendOpen(const char name[], const PPEBackendOps **ops)
{
  PPEBackend b;

  PetscFunctionBegin;
  PetscCall(PPEBackendFromString(PETSC_COMM_WORLD, name, &b));
  PetscCall(PPEBackendCheck(PETSC_COMM_WORLD, b));
  PetscCall(PPEBackendGetOps(b, ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendView(PPEBackend b, PetscViewer viewer)
{
  char dev[300];

  PetscFunctionBegin;
  PetscCall(PPEBackendGetDeviceName(b, dev, sizeof(dev)));
  if (dev[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "back end: %s (%s)\n", PPEBackends[b], dev));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "back end: %s\n", PPEBackends[b]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the CPU runs the AVX2 instances of the host loops: tested once per process. */
PetscBool PPEHostHasAVX2(void)
{
#if PPE_HOST_HAVE_AVX2
  static int have = -1; /* -1: not tested yet */

  if (have < 0) {
    __builtin_cpu_init();
    have = __builtin_cpu_supports("avx2") ? 1 : 0;
  }
  return have ? PETSC_TRUE : PETSC_FALSE;
#else
  return PETSC_FALSE;
#endif
}
