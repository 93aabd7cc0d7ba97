/*
   Driver of the device harness (harness.h): the back end's table, the device's copy
   bandwidth, the families, and the summary. Usage:

     harness [--only FAMILY] [--json FILE] [--table FILE] [--min-time SECONDS]

   Exit status: 0 when every check passed, 1 when one failed (or none ran), 2 when the back
   end failed.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "harness.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(HARNESS_CUDA)
  #define HARNESS_OPS PPEBackendOps_CUDA
  #define HARNESS_EMU 0
#elif defined(HARNESS_HIP)
  #define HARNESS_OPS PPEBackendOps_HIP
  #define HARNESS_EMU 0
#else
  #define HARNESS_OPS PPEBackendOps_Emu
  #define HARNESS_EMU 1
#endif

/* Bytes of the buffer of the copy-bandwidth measurement: large enough to leave the caches of
   a GPU (tens of MB), small in emulation. */
#define HARNESS_COPY_BYTES_DEV ((size_t)1 << 30)
#define HARNESS_COPY_BYTES_EMU ((size_t)1 << 24)
/* Seconds a timing loop runs at least. */
#define HARNESS_MIN_TIME_DEV 0.05
#define HARNESS_MIN_TIME_EMU 0.0
/* Rows of the summary table. */
#define HARNESS_MAX_ROWS 256

HRun H;

/* What the back end counts as host<->device traffic (the library defines it in its host back
   end; the harness links the device back end alone). */
ppe_dev_traffic ppe_dev_traffic_count;

static FILE *json_out;
static int   nchecks, nfail;

typedef struct {
  char   kernel[48], size[40], ref[32];
  double seconds, bytes, ref_seconds;
} HRow;
static HRow rows[HARNESS_MAX_ROWS];
static int  nrows;

void HCallCheck(int err, const char *expr, const char *file, int line)
{
  if (!err) return;
  fprintf(stderr, "harness: %s:%d: %s failed: %s (%d)\n", file, line, expr, H.ops->errstr(err), err);
  exit(2);
}

double *HAlloc(size_t n)
{
  void *d = NULL;

  HCALL(H.ops->alloc(&d, (n ? n : 1) * sizeof(double)));
  return (double *)d;
}

void HFree(void *d)
{
  HCALL(H.ops->release(d));
}

void HPut(double *d, const double *h, size_t n)
{
  HCALL(H.ops->copy(d, h, n * sizeof(double), PPE_DEV_H2D, H.stream));
}

void HGet(double *h, const double *d, size_t n)
{
  HCALL(H.ops->copy(h, d, n * sizeof(double), PPE_DEV_D2H, H.stream));
  HCALL(H.ops->sync(H.stream));
}

double *HUpload(const double *h, size_t n)
{
  double *d = HAlloc(n);

  HPut(d, h, n);
  return d;
}

double *HMallocHost(size_t n)
{
  double *h = (double *)calloc(n ? n : 1, sizeof(double));

  if (!h) {
    fprintf(stderr, "harness: no host memory for %zu doubles\n", n);
    exit(2);
  }
  return h;
}

void HSync(void)
{
  HCALL(H.ops->sync(H.stream));
}

static unsigned long long rng_state = 26;

double HUniform(double lo, double hi)
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

void HFill(double *v, size_t n, double lo, double hi)
{
  for (size_t i = 0; i < n; i++) v[i] = HUniform(lo, hi);
}

int HBitwise(const double *a, const double *b, size_t n, double *diff)
{
  int    same = 1;
  double d    = 0.0;

  for (size_t i = 0; i < n; i++) {
    if (memcmp(&a[i], &b[i], sizeof(double))) {
      double e = fabs(a[i] - b[i]);
      same     = 0;
      if (isnan(e) && !(isnan(a[i]) && isnan(b[i]))) e = INFINITY;
      if (e > d || isnan(d)) d = e;
    }
  }
  if (diff) *diff = d;
  return same;
}

double HRelDiff(const double *a, const double *ref, size_t n)
{
  double num = 0.0, den = 0.0;

  for (size_t i = 0; i < n; i++) {
    double e = fabs(a[i] - ref[i]);
    if (!(e <= num)) num = e; /* NaN wins */
    if (fabs(ref[i]) > den) den = fabs(ref[i]);
  }
  if (num == 0.0) return 0.0;
  return den > 0.0 ? num / den : INFINITY;
}

/* s with '"' and '\' escaped, for a JSON string */
static void JsonString(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int HCheck(const char *kernel, int ok, const char *what, ...)
{
  char    text[512];
  va_list ap;

  va_start(ap, what);
  vsnprintf(text, sizeof(text), what, ap);
  va_end(ap);
  nchecks++;
  if (!ok) nfail++;
  printf("%s %d - %s: %s\n", ok ? "ok" : "not ok", nchecks, kernel, text);
  fflush(stdout);
  if (json_out) {
    fprintf(json_out, "{\"type\": \"check\", \"backend\": \"%s\", \"kernel\": ", H.ops->name);
    JsonString(json_out, kernel);
    fprintf(json_out, ", \"ok\": %s, \"what\": ", ok ? "true" : "false");
    JsonString(json_out, text);
    fprintf(json_out, "}\n");
  }
  return ok;
}

void HTiming(const char *kernel, const char *size, double seconds, double bytes, const char *ref_name, double ref_seconds)
{
  double gbs  = bytes > 0 && seconds > 0 ? bytes / seconds / 1e9 : 0.0;
  double frac = bytes > 0 && seconds > 0 && H.copy_bw > 0 ? bytes / seconds / H.copy_bw : 0.0;

  printf("# time %-24s %-22s %10.3e s", kernel, size, seconds);
  if (bytes > 0) printf("  %8.1f GB/s  %5.2f of copy", gbs, frac);
  if (ref_name) printf("  %s %10.3e s (ratio %.2f)", ref_name, ref_seconds, seconds / ref_seconds);
  printf("\n");
  if (json_out) {
    fprintf(json_out, "{\"type\": \"time\", \"backend\": \"%s\", \"kernel\": ", H.ops->name);
    JsonString(json_out, kernel);
    fprintf(json_out, ", \"size\": ");
    JsonString(json_out, size);
    fprintf(json_out, ", \"seconds\": %.6e, \"bytes\": %.6e, \"GBps\": %.4f, \"frac_copy\": %.4f", seconds, bytes, gbs, frac);
    if (ref_name) {
      fprintf(json_out, ", \"ref\": ");
      JsonString(json_out, ref_name);
      fprintf(json_out, ", \"ref_seconds\": %.6e", ref_seconds);
    }
    fprintf(json_out, "}\n");
  }
  if (nrows < HARNESS_MAX_ROWS) {
    HRow *r = &rows[nrows++];
    snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
    snprintf(r->size, sizeof(r->size), "%s", size);
    snprintf(r->ref, sizeof(r->ref), "%s", ref_name ? ref_name : "");
    r->seconds     = seconds;
    r->bytes       = bytes;
    r->ref_seconds = ref_name ? ref_seconds : 0.0;
  }
}

double HNow(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The device's device-to-device copy: bytes read + written per second. */
static double CopyBandwidth(size_t bytes)
{
  void  *a, *b;
  double s;

  HCALL(H.ops->alloc(&a, bytes));
  HCALL(H.ops->alloc(&b, bytes));
  memset(&s, 0, sizeof(s));
  /* first touch (the emulation's memory is host memory) */
  {
    double *h = HMallocHost(bytes / sizeof(double));
    HCALL(H.ops->copy(a, h, bytes, PPE_DEV_H2D, H.stream));
    HCALL(H.ops->copy(b, h, bytes, PPE_DEV_H2D, H.stream));
    HSync();
    free(h);
  }
  HTIME(s, HCALL(H.ops->copy(b, a, bytes, PPE_DEV_D2D, H.stream)));
  HFree(a);
  HFree(b);
  return 2.0 * (double)bytes / s;
}

/* The summary table (Markdown), to f. */
static void Table(FILE *f, const char *device)
{
  fprintf(f, "Device: %s (back end %s); device-to-device copy %.1f GB/s (bytes read + written)\n\n", device, H.ops->name, H.copy_bw / 1e9);
  if (H.emu) fprintf(f, "Emulation: the times are of host loops at small sizes, run to check the code path, not a measurement of a device.\n\n");
  fprintf(f, "| kernel | size | time (s) | GB/s | fraction of copy | baseline | baseline (s) | ratio |\n");
  fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int i = 0; i < nrows; i++) {
    const HRow *r = &rows[i];
    fprintf(f, "| %s | %s | %.3e | ", r->kernel, r->size, r->seconds);
    if (r->bytes > 0) fprintf(f, "%.1f | %.2f | ", r->bytes / r->seconds / 1e9, r->bytes / r->seconds / H.copy_bw);
    else fprintf(f, " | | ");
    if (r->ref[0]) fprintf(f, "%s | %.3e | %.2f |\n", r->ref, r->ref_seconds, r->seconds / r->ref_seconds);
    else fprintf(f, " | | |\n");
  }
  fprintf(f, "\n%d checks, %d failed\n", nchecks, nfail);
}

static const struct {
  const char *name;
  void (*run)(void);
} families[] = {
  {"stencil", HFamily_stencil},
  {"tridiag", HFamily_tridiag},
  {"tileilu", HFamily_tileilu},
  {"tsblock", HFamily_tsblock},
  {"fft",     HFamily_fft    },
  {"solve",   HFamily_solve  },
};

static void Usage(const char *prog)
{
  fprintf(stderr, "usage: %s [--only FAMILY] [--json FILE] [--table FILE] [--min-time SECONDS]\n  families:", prog);
  for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) fprintf(stderr, " %s", families[f].name);
  fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
  const char *json = NULL, *table = NULL;
  char        device[256];
  int         ndev = 0, found = 0;

  H.ops      = &HARNESS_OPS;
  H.emu      = HARNESS_EMU;
  H.min_time = H.emu ? HARNESS_MIN_TIME_EMU : HARNESS_MIN_TIME_DEV;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--only") && i + 1 < argc) H.only = argv[++i];
    else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
    else if (!strcmp(argv[i], "--table") && i + 1 < argc) table = argv[++i];
    else if (!strcmp(argv[i], "--min-time") && i + 1 < argc) H.min_time = atof(argv[++i]);
    else {
      Usage(argv[0]);
      return 2;
    }
  }
  if (json && !(json_out = fopen(json, "w"))) {
    fprintf(stderr, "harness: cannot write %s\n", json);
    return 2;
  }
  HCALL(H.ops->count(&ndev));
  if (ndev < 1) {
    fprintf(stderr, "harness: the %s back end sees no device\n", H.ops->name);
    return 2;
  }
  HCALL(H.ops->select(0));
  HCALL(H.ops->device_name(0, device, sizeof(device)));
  HCALL(H.ops->stream_create(&H.stream));
  H.copy_bw = CopyBandwidth(H.emu ? HARNESS_COPY_BYTES_EMU : HARNESS_COPY_BYTES_DEV);
  printf("# device: %s, back end %s, copy %.1f GB/s\n", device, H.ops->name, H.copy_bw / 1e9);
  if (json_out) {
    fprintf(json_out, "{\"type\": \"device\", \"backend\": \"%s\", \"name\": ", H.ops->name);
    JsonString(json_out, device);
    fprintf(json_out, ", \"copy_GBps\": %.4f}\n", H.copy_bw / 1e9);
  }
  for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
    if (H.only && strcmp(H.only, families[f].name)) continue;
    found = 1;
    printf("# family %s\n", families[f].name);
    fflush(stdout);
    families[f].run();
  }
  if (!found) {
    Usage(argv[0]);
    return 2;
  }
  HCALL(H.ops->stream_destroy(H.stream));
  printf("\n");
  Table(stdout, device);
  if (table) {
    FILE *f = fopen(table, "w");
    if (!f) {
      fprintf(stderr, "harness: cannot write %s\n", table);
      return 2;
    }
    Table(f, device);
    fclose(f);
  }
  if (json_out) {
    fprintf(json_out, "{\"type\": \"summary\", \"backend\": \"%s\", \"checks\": %d, \"failed\": %d}\n", H.ops->name, nchecks, nfail);
    fclose(json_out);
  }
  printf("%d checks, %d failed\n", nchecks, nfail);
  if (!nchecks) fprintf(stderr, "harness: no check ran\n");
  return nfail || !nchecks ? 1 : 0;
}
