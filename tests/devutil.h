/*
   Helpers of the device tests (t192, t193, t195): a back end's table and stream, copies to
   and from its memory, and a bitwise comparison.
*/
#pragma once

#include <ppekit/private/backendimpl.h>
#include <string.h>

/* A device back end and its stream. */
typedef struct {
  const PPEBackendOps *ops;
  void                *stream;
} Dev;

#define DEVCALL(D, expr) PPEBackendCall((D)->ops, expr)

static inline PetscErrorCode DevAlloc(Dev *D, size_t n, double **d)
{
  PetscFunctionBegin;
  DEVCALL(D, D->ops->alloc((void **)d, PetscMax(n, (size_t)1) * sizeof(double)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscErrorCode DevFree(Dev *D, double **d)
{
  PetscFunctionBegin;
  DEVCALL(D, D->ops->release(*d));
  *d = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n doubles of h into the device array d (asynchronous). */
static inline PetscErrorCode Put(Dev *D, const double *h, size_t n, double *d)
{
  PetscFunctionBegin;
  DEVCALL(D, D->ops->copy(d, h, n * sizeof(double), PPE_DEV_H2D, D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new device copy of n doubles of h. */
static inline PetscErrorCode Upload(Dev *D, const double *h, size_t n, double **d)
{
  PetscFunctionBegin;
  PetscCall(DevAlloc(D, n, d));
  PetscCall(Put(D, h, n, *d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n doubles of the device array d into h, waiting for them. */
static inline PetscErrorCode Download(Dev *D, const double *d, size_t n, double *h)
{
  PetscFunctionBegin;
  DEVCALL(D, D->ops->copy(h, d, n * sizeof(double), PPE_DEV_D2H, D->stream));
  DEVCALL(D, D->ops->sync(D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a and b hold the same bits; the largest |a - b| (inf where one is NaN) is merged
   into *diff. */
static inline PetscBool SameBits(const double *a, const double *b, size_t n, double *diff)
{
  PetscBool same = PETSC_TRUE;

  for (size_t i = 0; i < n; i++) {
    double d = PetscAbsReal(a[i] - b[i]);
    if (memcmp(&a[i], &b[i], sizeof(double))) same = PETSC_FALSE;
    if (d != d) d = PETSC_INFINITY;
    if (d > *diff) *diff = d;
  }
  return same;
}
