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
#include <ppekit/private/deviceimpl.h>
#include <backend/host/simd.h>

const char *const PPEBackends[] = {"host", "cuda", "hip", "emu", "PPEBackend", "PPE_BACKEND_", NULL};

/* What was found out about each back end, once per process. */
typedef struct {
  PetscBool checked;
  int       rc;       /* 0, or the error of the device count */
  int       ndev;     /* devices visible */
  int       dev;      /* the device this rank uses */
  char      name[256];
} PPEBackendState;

static PPEBackendState ppe_backend_state[4];

static const PPEDeviceOps *RawTable(PPEBackend b)
{
  switch (b) {
  case PPE_BACKEND_EMU:
    return &PPEDeviceOps_Emu;
#if PPEKIT_HAVE_CUDA
  case PPE_BACKEND_CUDA:
    return &PPEDeviceOps_CUDA;
#endif
#if PPEKIT_HAVE_HIP
  case PPE_BACKEND_HIP:
    return &PPEDeviceOps_HIP;
#endif
  default:
    return NULL;
  }
}

/*
   Bytes moved between host and device memory, for PPECounters.device_bytes: the library uses
   each back end through a copy of its table whose copies (host to device and back) and whose
   launchers that return numbers to the host (dot, bcgs_update_r, ts_gram: their scalars) add
   what they move. Wrappers per back end, as the table's functions take no context.
*/
static PetscLogDouble ppe_device_bytes = 0;
static PetscLogDouble ppe_device_halo_bytes = 0; /* the halo faces of device-resident vectors */
static PetscLogDouble *ppe_device_count = &ppe_device_bytes;

/* Copies made between PPEDeviceCountHalo(PETSC_TRUE) and (PETSC_FALSE) are halo traffic
   (PPECounters.device_halo_bytes), not vector copies. */
void PPEDeviceCountHalo(PetscBool halo)
{
  ppe_device_count = halo ? &ppe_device_halo_bytes : &ppe_device_bytes;
}

PetscLogDouble PPEDeviceHaloBytes(void)
{
  return ppe_device_halo_bytes;
}

PetscLogDouble PPEDeviceBytes(void)
{
  return ppe_device_bytes;
}

#define PPE_COUNTING_TABLE(B)   static int Copy_##B(void *d, const void *s, size_t n, ppe_dev_copy_kind k, void *st)   {     if (k != PPE_DEV_D2D) *ppe_device_count += (PetscLogDouble)n;     return RawTable(B)->copy(d, s, n, k, st);   }   static int Dot_##B(long n, int nd, const double *y, const double *u0, const double *u1, double *w, double *s, void *st)   {     ppe_device_bytes += 8.0 * nd;     return RawTable(B)->dot(n, nd, y, u0, u1, w, s, st);   }   static int SDot_##B(const ppe_dev_box *bx, int nd, const double *y, const double *u0, const double *u1, double *w, double *s, void *st)   {     ppe_device_bytes += 8.0 * nd;     return RawTable(B)->stencil_dot(bx, nd, y, u0, u1, w, s, st);   }   static int UpdateR_##B(long n, double om, const double *t, const double *rt, double *r, double *w, double *s, void *st)   {     ppe_device_bytes += 16.0;     return RawTable(B)->bcgs_update_r(n, om, t, rt, r, w, s, st);   }   static int Gram_##B(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *w, double *out, void *st)   {     ppe_device_bytes += 8.0 * nx * ny;     return RawTable(B)->ts_gram(n, nx, x, ny, y, band, w, out, st);   }   static const PPEDeviceOps *Counting_##B(void)   {     static PPEDeviceOps t;     static int          made = 0;     if (!made) {       t               = *RawTable(B);       t.copy          = Copy_##B;       t.dot           = Dot_##B;       t.stencil_dot   = SDot_##B;       t.bcgs_update_r = UpdateR_##B;       t.ts_gram       = Gram_##B;       made            = 1;     }     return &t;   }

PPE_COUNTING_TABLE(PPE_BACKEND_EMU)
#if PPEKIT_HAVE_CUDA
PPE_COUNTING_TABLE(PPE_BACKEND_CUDA)
#endif
#if PPEKIT_HAVE_HIP
PPE_COUNTING_TABLE(PPE_BACKEND_HIP)
#endif

/* The table the library uses: the back end's, counting its host<->device bytes */
static const PPEDeviceOps *Table(PPEBackend b)
{
  switch (b) {
  case PPE_BACKEND_EMU:
    return Counting_PPE_BACKEND_EMU();
#if PPEKIT_HAVE_CUDA
  case PPE_BACKEND_CUDA:
    return Counting_PPE_BACKEND_CUDA();
#endif
#if PPEKIT_HAVE_HIP
  case PPE_BACKEND_HIP:
    return Counting_PPE_BACKEND_HIP();
#endif
  default:
    return NULL;
  }
}

static const char *ConfigureOption(PPEBackend b)
{
  return b == PPE_BACKEND_CUDA ? "--with-cuda" : "--with-hip";
}

/* Count the devices of a built back end and choose this rank's, once. */
static PetscErrorCode Probe(MPI_Comm comm, PPEBackend b, PPEBackendState **st)
{
  PPEBackendState    *s   = &ppe_backend_state[b];
  const PPEDeviceOps *ops = Table(b);

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
  PPEBackendState    *s;
  const PPEDeviceOps *ops = Table(b);
  PetscMPIInt         bad, anybad;

  PetscFunctionBegin;
  if (b == PPE_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ops, comm, PETSC_ERR_SUP, "PPEKit was built without the %s back end: configure PPEKit with %s to use -ppe_backend %s", b == PPE_BACKEND_CUDA ? "CUDA" : "HIP", ConfigureOption(b), PPEBackends[b]);
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
  if (b != PPE_BACKEND_HOST && s->checked && !s->rc) PetscCall(PetscSNPrintf(name, len, "device %d of %d: %s", s->dev, s->ndev, s->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBackendGetOps(PPEBackend b, const PPEDeviceOps **ops)
{
  PetscFunctionBegin;
  *ops = Table(b);
  PetscCheck(b == PPE_BACKEND_HOST || *ops, PETSC_COMM_SELF, PETSC_ERR_SUP, "PPEKit was built without the %s back end: configure PPEKit with %s", PPEBackends[b], ConfigureOption(b));
  PetscCheck(b == PPE_BACKEND_HOST || ppe_backend_state[b].checked || b == PPE_BACKEND_EMU, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call PPEBackendCheck() before using back end %s", PPEBackends[b]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEDeviceOpen(const char name[], const PPEDeviceOps **ops)
{
  PPEBackend b;

  PetscFunctionBegin;
  PetscCall(PPEBackendFromString(PETSC_COMM_WORLD, name, &b));
  PetscCheck(b != PPE_BACKEND_HOST, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "The host back end has no device table: use cuda, hip or emu");
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
