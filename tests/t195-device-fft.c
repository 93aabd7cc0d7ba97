static const char help[] = "The device transforms of PC fftptdma (pre pass, the back end's batched complex FFT, post\n\
pass: src/kernels/fft.h) against FFTW's real transforms, line by line: every kind\n\
(R2HC, HC2R, REDFT00/01/10/11, RODFT00/01/10/11), along x and along y of a box, line\n\
lengths 2 to 97 (odd, even, prime, power of two).\n\
  -ppe_backend NAME   device back end to check (default: emu)\n\n";

#include <ppekit.h>
#include <ppekit/private/backendimpl.h>
#include <fftw3.h>
#include "tap.h"

#define DEVCALL(ops, expr) PPEBackendCall(ops, expr)

static unsigned long long rng_state = 195;
static double             Uniform(void)
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return 2.0 * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0) - 1.0;
}

static const struct {
  int           kind;
  fftw_r2r_kind fftw;
  const char   *name;
} kinds[] = {
  {PPE_FFT_R2HC,    FFTW_R2HC,    "R2HC"   },
  {PPE_FFT_HC2R,    FFTW_HC2R,    "HC2R"   },
  {PPE_FFT_REDFT00, FFTW_REDFT00, "REDFT00"},
  {PPE_FFT_REDFT01, FFTW_REDFT01, "REDFT01"},
  {PPE_FFT_REDFT10, FFTW_REDFT10, "REDFT10"},
  {PPE_FFT_REDFT11, FFTW_REDFT11, "REDFT11"},
  {PPE_FFT_RODFT00, FFTW_RODFT00, "RODFT00"},
  {PPE_FFT_RODFT01, FFTW_RODFT01, "RODFT01"},
  {PPE_FFT_RODFT10, FFTW_RODFT10, "RODFT10"},
  {PPE_FFT_RODFT11, FFTW_RODFT11, "RODFT11"},
};

/* Kind q along direction d of a box whose direction d has n points: the relative max
   difference of the device result to FFTW's, line by line. */
static PetscErrorCode CheckOne(const PPEBackendOps *ops, void *stream, int q, int d, long n, double *rel)
{
  long          ext[3] = {3, 4, 2}, inner, lines, np;
  ppe_fft_lines F;
  double       *x, *y, *ref, *line, *dx, *dz, *dends, maxd = 0.0, maxr = 0.0;
  void         *plan;
  fftw_plan     p;

  PetscFunctionBegin;
  ext[d] = n;
  np     = ext[0] * ext[1] * ext[2];
  inner  = d ? ext[0] : 1;
  lines  = np / n;
  PetscCheck(!ppe_fft_setup(kinds[q].kind, n, inner, lines, &F), PETSC_COMM_SELF, PETSC_ERR_PLIB, "ppe_fft_setup failed");
  PetscCall(PetscMalloc4(np, &x, np, &y, np, &ref, n, &line));
  for (long i = 0; i < np; i++) x[i] = Uniform();
  /* FFTW, one line at a time through a contiguous copy */
  p = fftw_plan_r2r_1d((int)n, line, line, kinds[q].fftw, FFTW_ESTIMATE);
  for (long l = 0; l < lines; l++) {
    for (long j = 0; j < n; j++) line[j] = x[ppe_fft_offset(&F, l, j)];
    fftw_execute(p);
    for (long j = 0; j < n; j++) ref[ppe_fft_offset(&F, l, j)] = line[j];
  }
  fftw_destroy_plan(p);
  /* the device: in place on x's copy */
  DEVCALL(ops, ops->alloc((void **)&dx, (size_t)np * sizeof(double)));
  DEVCALL(ops, ops->alloc((void **)&dz, (size_t)(2 * lines * F.L) * sizeof(double)));
  DEVCALL(ops, ops->alloc((void **)&dends, (size_t)(2 * lines) * sizeof(double)));
  DEVCALL(ops, ops->copy(dx, x, (size_t)np * sizeof(double), PPE_DEV_H2D, stream));
  DEVCALL(ops, ops->fft_plan(F.L, lines, dz, &plan, stream));
  DEVCALL(ops, ops->fft_pre(&F, dx, dz, dends, stream));
  DEVCALL(ops, ops->fft_exec(plan, dz, stream));
  DEVCALL(ops, ops->fft_post(&F, dz, dends, dx, stream));
  DEVCALL(ops, ops->copy(y, dx, (size_t)np * sizeof(double), PPE_DEV_D2H, stream));
  DEVCALL(ops, ops->sync(stream));
  DEVCALL(ops, ops->fft_destroy(plan));
  DEVCALL(ops, ops->release(dx));
  DEVCALL(ops, ops->release(dz));
  DEVCALL(ops, ops->release(dends));
  for (long i = 0; i < np; i++) {
    maxd = PetscMax(maxd, PetscAbsReal(y[i] - ref[i]));
    maxr = PetscMax(maxr, PetscAbsReal(ref[i]));
  }
  *rel = maxd / maxr;
  PetscCall(PetscFree4(x, y, ref, line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char                 name[16] = "emu";
  const PPEBackendOps *ops;
  void                *stream;
  MPI_Comm             comm;
  const long           sizes[] = {2, 3, 4, 5, 8, 13, 64, 97};
  const int            nsizes  = (int)(sizeof(sizes) / sizeof(sizes[0]));

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ppe_backend", name, sizeof(name), NULL));
  PetscCall(PPEBackendOpen(name, &ops));
  DEVCALL(ops, ops->stream_create(&stream));
  for (int q = 0; q < (int)(sizeof(kinds) / sizeof(kinds[0])); q++)
    for (int d = 0; d < 2; d++) {
      double worst = 0.0, rel = 0.0;
      long   at = 0;

      for (int s = 0; s < nsizes; s++) {
        PetscCall(CheckOne(ops, stream, q, d, sizes[s], &rel));
        if (rel >= worst) {
          worst = rel;
          at    = sizes[s];
        }
      }
      /* rounding of an FFT: a few ulps times log2(L) */
      PetscCall(TapCheck(comm, (PetscBool)(worst <= 1e-14), "%s %s along %c, n = 2 ... 97: max difference to FFTW %.2e of the largest value (worst at n = %ld)", name, kinds[q].name, "xy"[d], worst, at));
    }
  /* a bad size is refused, not transformed */
  {
    ppe_fft_lines F;
    int           one = ppe_fft_setup(PPE_FFT_REDFT00, 1, 1, 1, &F), unknown = one == -1 ? ppe_fft_setup(PPE_FFT_NKINDS, 8, 1, 1, &F) : 0;
    PetscCall(TapCheck(comm, (PetscBool)(one == -1 && unknown == -1), "lines of 1 point and unknown kinds are refused by ppe_fft_setup: returns %d and %d (want -1, -1)", one, unknown));
  }
  DEVCALL(ops, ops->stream_destroy(stream));
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
