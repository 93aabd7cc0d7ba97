/*
   Compiles the template PPE_HOST_BODY (a "<kernel>_host_body.h" of this folder) once per
   instruction set of simd.h: the generic instance (functions name_Generic), then, where
   PPE_HOST_HAVE_AVX2, the AVX2 instance (name_AVX2). Included, not guarded: once per back
   end file, after the helpers its template calls.
*/
#include "simd.h"

#ifndef PPE_HOST_BODY
  #error "define PPE_HOST_BODY as the template's file name before including simd_instances.h"
#endif

#define PPE_HOST_SUFFIX _Generic
#define PPE_HOST_TARGET
#include PPE_HOST_BODY
#undef PPE_HOST_SUFFIX
#undef PPE_HOST_TARGET

#if PPE_HOST_HAVE_AVX2
  #define PPE_HOST_SUFFIX _AVX2
  #define PPE_HOST_TARGET PPE_HOST_TARGET_AVX2
  #include PPE_HOST_BODY
  #undef PPE_HOST_SUFFIX
  #undef PPE_HOST_TARGET
#endif

#undef PPE_HOST_BODY
