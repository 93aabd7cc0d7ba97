static const char help[] = "Fast DCT/DST (src/fft/fastdct.c): for every supported FFTW r2r kind and every\n\
length n = 1..97, PPEFastR2R gives FFTW's own r2r numbers on the same random data, to\n\
1e-13 of the largest output, on contiguous lines, strided lines (column blocks, with and\n\
without a last partial block) and lines of a general stride, out of place and in place;\n\
FFTW_WISDOM_ONLY without wisdom gives no transform and no error; other kinds are refused.\n";

#include <ppekit/private/fastdct.h>
#include "tap.h"

#define NMAX 97

/* one layout of a batch: lines of stride is, loops {count, dist} */
typedef struct {
  const char *name;
  PetscInt    is, nloop, loop[2][2], size; /* size: doubles spanned by the batch */
} Layout;

/* the layouts for length n: contiguous lines (two loops), y lines of an nx * n * 2 block for
   a few and for more columns than one column block holds, lines of stride 3 */
static void Layouts(PetscInt n, Layout lay[4])
{
  const PetscInt nxs[2] = {5, 45};

  lay[0].name       = "contiguous lines (9 x 5)";
  lay[0].is         = 1;
  lay[0].nloop      = 2;
  lay[0].loop[0][0] = 9;
  lay[0].loop[0][1] = n;
  lay[0].loop[1][0] = 5;
  lay[0].loop[1][1] = 9 * n;
  lay[0].size       = 45 * n;
  for (int s = 0; s < 2; s++) {
    PetscInt nx = nxs[s];

    lay[1 + s].name       = s ? "strided lines (45 columns x 2 planes)" : "strided lines (5 columns x 2 planes)";
    lay[1 + s].is         = nx;
    lay[1 + s].nloop      = 2;
    lay[1 + s].loop[0][0] = nx;
    lay[1 + s].loop[0][1] = 1;
    lay[1 + s].loop[1][0] = 2;
    lay[1 + s].loop[1][1] = nx * n;
    lay[1 + s].size       = 2 * nx * n;
  }
  lay[3].name       = "lines of stride 3 (4 lines)";
  lay[3].is         = 3;
  lay[3].nloop      = 1;
  lay[3].loop[0][0] = 4;
  lay[3].loop[0][1] = 3 * n + 1;
  lay[3].loop[1][0] = 1;
  lay[3].loop[1][1] = 0;
  lay[3].size       = 4 * (3 * n + 1);
}

static double Random(unsigned long long *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* max |fast - FFTW| / max |FFTW| for one kind, length and layout */
static PetscErrorCode Compare(fftw_r2r_kind kind, PetscInt n, const Layout *lay, PetscBool inplace, unsigned flags, double *work, double *rel)
{
  double            *x = work, *ref = work + lay->size, *out = work + 2 * lay->size, err = 0, big = 0;
  fftw_iodim64       d, v[2];
  fftw_plan          p;
  PPEFastR2R         f;
  unsigned long long seed = 0x9e3779b97f4a7c15ULL ^ (unsigned long long)(n * 131 + kind);

  PetscFunctionBegin;
  for (PetscInt i = 0; i < lay->size; i++) {
    x[i]   = Random(&seed);
    ref[i] = inplace ? x[i] : 0.0;
    out[i] = inplace ? x[i] : 0.0;
  }
  d.n  = n;
  d.is = d.os = lay->is;
  for (PetscInt q = 0; q < lay->nloop; q++) {
    v[q].n  = lay->loop[q][0];
    v[q].is = v[q].os = lay->loop[q][1];
  }
  p = fftw_plan_guru64_r2r(1, &d, (int)lay->nloop, v, x, ref, &kind, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan the reference");
  fftw_execute(p);
  fftw_destroy_plan(p);
  PetscCall(PPEFastR2RCreate(kind, n, lay->is, lay->nloop, (const PetscInt(*)[2])lay->loop, flags, &f));
  PetscCall(PPEFastR2RExecute(f, inplace ? out : x, out));
  PetscCall(PPEFastR2RDestroy(&f));
  for (PetscInt i = 0; i < lay->size; i++) {
    err = PetscMax(err, PetscAbsReal(out[i] - ref[i]));
    big = PetscMax(big, PetscAbsReal(ref[i]));
  }
  *rel = big > 0 ? err / big : err;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const fftw_r2r_kind kinds[6] = {FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01, FFTW_REDFT11, FFTW_RODFT11};
  const char *const   names[6] = {"REDFT10 (DCT-II)", "REDFT01 (DCT-III)", "RODFT10 (DST-II)", "RODFT01 (DST-III)", "REDFT11 (DCT-IV)", "RODFT11 (DST-IV)"};
  double             *work;
  Layout              lay[4];
  PetscInt            step = 1; /* -step s: every s-th length (the sanitizer tree), 97 always */

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-step", &step, NULL));
  PetscCheck(step >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-step must be >= 1");
  PetscCall(PetscMalloc1(3 * 2 * 45 * NMAX, &work));
  for (int k = 0; k < 6; k++) {
    PetscBool ok;

    PetscCall(PPEFastR2RSupported(kinds[k], &ok));
    PetscCall(TapCheck(PETSC_COMM_WORLD, ok, "%s is supported", names[k]));
    if (!ok) continue;
    for (int l = 0; l < 4; l++)
      for (int ip = 0; ip < 2; ip++) {
        double   worst  = 0;
        PetscInt nworst = 0;

        for (PetscInt n = 1; n <= NMAX; n = (n + step > NMAX && n < NMAX) ? NMAX : n + step) {
          double rel = 1.0; /* not ok unless the comparison runs */

          Layouts(n, lay);
          PetscCall(Compare(kinds[k], n, &lay[l], (PetscBool)ip, FFTW_ESTIMATE, work, &rel));
          if (rel >= worst) {
            worst  = rel;
            nworst = n;
          }
        }
        Layouts(1, lay);
        PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(worst <= 1e-13), "%s, %s, %s: max |fast - FFTW| / max |FFTW| = %.1e (worst n = %" PetscInt_FMT ", n = 1..%d step %" PetscInt_FMT ")", names[k], lay[l].name, ip ? "in place" : "out of place",
                           worst, nworst, NMAX, step));
      }
  }
  /* FFTW_WISDOM_ONLY: no wisdom gives no transform (and no error); after planning, wisdom suffices */
  {
    PPEFastR2R     f;
    const PetscInt loop[1][2] = {
      {3, 60}
    };
    double rel = 1.0; /* not ok unless the comparison runs */

    fftw_forget_wisdom();
    PetscCall(PPEFastR2RCreate(FFTW_REDFT10, 60, 1, 1, loop, FFTW_MEASURE | FFTW_WISDOM_ONLY, &f));
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(f == NULL), "FFTW_WISDOM_ONLY without wisdom: no transform, no error"));
    PetscCall(PPEFastR2RCreate(FFTW_REDFT10, 60, 1, 1, loop, FFTW_MEASURE, &f));
    PetscCall(PPEFastR2RDestroy(&f));
    PetscCall(PPEFastR2RCreate(FFTW_REDFT10, 60, 1, 1, loop, FFTW_MEASURE | FFTW_WISDOM_ONLY, &f));
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(f != NULL), "FFTW_WISDOM_ONLY after an FFTW_MEASURE plan of the same batch: a transform"));
    PetscCall(PPEFastR2RDestroy(&f));
    Layouts(60, lay);
    lay[0].loop[0][0] = 3;
    lay[0].nloop      = 1;
    lay[0].size       = 3 * 60;
    PetscCall(Compare(FFTW_REDFT10, 60, &lay[0], PETSC_FALSE, FFTW_MEASURE | FFTW_WISDOM_ONLY, work, &rel));
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(rel <= 1e-13), "FFTW_WISDOM_ONLY transform matches FFTW to %.1e", rel));
  }
  /* other kinds are refused */
  {
    PPEFastR2R     f;
    PetscBool      ok;
    PetscErrorCode ierr;
    const PetscInt loop[1][2] = {
      {1, 8}
    };

    PetscCall(PPEFastR2RSupported(FFTW_REDFT00, &ok));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PPEFastR2RCreate(FFTW_REDFT00, 8, 1, 1, loop, FFTW_ESTIMATE, &f);
    PetscCall(PetscPopErrorHandler());
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(!ok && ierr == PETSC_ERR_SUP && f == NULL), "REDFT00 is not supported (supported: %s, want no) and refused with PETSC_ERR_SUP (error %d, want %d; plan %s, want none)", ok ? "yes" : "no", (int)ierr,
                       (int)PETSC_ERR_SUP, f ? "made" : "none"));
  }
  PetscCall(PetscFree(work));
  fftw_cleanup();
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
