/*
   The device harness: every launcher of a device back end (src/backend/device, one file
   <family>_dev.h per family) run against the same single-source body of src/kernels in a plain host loop, with no PETSc, no
   MPI and no autotools, so that it builds with nvcc alone on a bare GPU machine
   (run-on-gpu.sh), and with the host C compiler and the emulation back end everywhere else
   (run-on-gpu.sh --emu, run by the test suite).

   One file per family of launchers (h_<family>.c) defines a function HFamily_<family>()
   that checks its launchers at small sizes (bitwise where the documentation promises it,
   else to a relative tolerance) and then times them at a size that fills the device
   (H.timing sizes: small in emulation). Checks and timings are printed, written as JSON
   lines and gathered into the summary table by harness.c.
*/
#ifndef PPE_TESTS_DEVICE_HARNESS_H
#define PPE_TESTS_DEVICE_HARNESS_H

#include <stddef.h>
#include <backend/device/device.h>

/* The run: the back end under test and its stream, and the sizes. */
typedef struct {
  const PPEBackendOps *ops;
  void                *stream;
  int                  emu;      /* emulation back end: timing sizes are small */
  double               min_time; /* seconds a timing loop runs at least */
  double               copy_bw;  /* the device's device-to-device copy, bytes read + written per second */
  const char          *only;     /* run only this family (NULL: all) */
} HRun;

extern HRun H;

/* Abort the run with the back end's message when a call of it fails. */
#define HCALL(expr) HCallCheck((int)(expr), #expr, __FILE__, __LINE__)
void HCallCheck(int err, const char *expr, const char *file, int line);

/* Device memory of n doubles (never NULL: a failure aborts), freed by HFree. */
double *HAlloc(size_t n);
void    HFree(void *d);
/* n doubles host -> device (asynchronous), device -> host (waits), a new device copy. */
void    HPut(double *d, const double *h, size_t n);
void    HGet(double *h, const double *d, size_t n);
double *HUpload(const double *h, size_t n);
/* Host memory of n doubles, zeroed (a failure aborts). */
double *HMallocHost(size_t n);
/* Wait for the stream. */
void HSync(void);

/* Reproducible uniform numbers in [lo, hi); HFill fills v[0..n). */
double HUniform(double lo, double hi);
void   HFill(double *v, size_t n, double lo, double hi);

/* Comparisons. HBitwise: whether a and b hold the same bits; *diff gets the largest |a - b|
   (inf where exactly one is NaN). HRelDiff: max |a - ref| / max |ref| (0 when both are 0). */
int    HBitwise(const double *a, const double *b, size_t n, double *diff);
double HRelDiff(const double *a, const double *ref, size_t n);

/* Record a check: ok or FAIL, printed and written as a JSON line; `what` says what was
   compared and how (printf format). Returns ok. */
int HCheck(const char *kernel, int ok, const char *what, ...) __attribute__((format(printf, 3, 4)));

/* Record a timing of kernel at size (text), seconds per call, bytes it must move at least
   (0: not a bandwidth kernel); ref_name/ref_seconds: a baseline timed on the same data
   (NULL: none). */
void HTiming(const char *kernel, const char *size, double seconds, double bytes, const char *ref_name, double ref_seconds);

/* Wall-clock seconds. */
double HNow(void);

/* seconds = time of one `stmt` (a launch or a sequence of launches), after one untimed run,
   repeated until H.min_time has passed, with the stream waited for at the end. */
#define HTIME(seconds, stmt) \
  do { \
    long   htime_reps_ = 1; \
    double htime_el_; \
    stmt; \
    HSync(); \
    for (;;) { \
      double htime_t0_ = HNow(); \
      for (long htime_r_ = 0; htime_r_ < htime_reps_; htime_r_++) { \
        stmt; \
      } \
      HSync(); \
      htime_el_ = HNow() - htime_t0_; \
      if (htime_el_ >= H.min_time || htime_reps_ >= (1L << 20)) break; \
      htime_reps_ *= 2; \
    } \
    (seconds) = htime_el_ / (double)htime_reps_; \
  } while (0)

/* The families (h_<family>.c). */
void HFamily_stencil(void);
void HFamily_tridiag(void);
void HFamily_tileilu(void);
void HFamily_tsblock(void);
void HFamily_fft(void);
void HFamily_solve(void);

#endif
