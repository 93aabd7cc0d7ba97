/*
   The settings of the FFT + tridiagonal solver on pencils that its owner chooses: the string
   tables of its enumerations, the names its errors and its view give the settings (an
   owner such as PC fftptdma gives its option names; a direct caller of PPEFFTPTDMASetUp()
   sees the names of that function's arguments), and the name that begins its errors.
*/
#include <ppekit/private/fftptdmaimpl.h>

const char *const PPEFFTZSolves[]  = {"ptdma", "transpose", "distd2", "auto", "PPEFFTZSolve", "PPE_FFT_ZSOLVE_", NULL};
const char *const PPEFFTDCTs[]     = {"auto", "fftw", "fast", "PPEFFTDCT", "PPE_FFT_DCT_", NULL};
const char *const PPEFFTPlanners[] = {"estimate", "measure", "patient", "auto", "PPEFFTPlanner", "PPE_FFT_PLANNER_", NULL};

/* the arguments of PPEFFTPTDMASetUp() that hold the settings, in PPEFFTOption order */
static const char *const PPEFFTOptionArguments[PPE_FFT_OPTION_NUM] = {"zsolve", "pgrid", "wisdom", "dct"};

/*
   PPEFFTPTDMASetOptionName - (developer) the name a setting has for the users of the solver's
   owner (PC fftptdma gives the names of its options), named in the errors and the view; kept
   by PPEFFTPTDMAReset(). NULL or "" gives back the argument's name.
*/
PetscErrorCode PPEFFTPTDMASetOptionName(PPEFFTPTDMA *f, PPEFFTOption o, const char name[])
{
  PetscFunctionBegin;
  PetscCheck(o >= 0 && o < PPE_FFT_OPTION_NUM, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown setting %d of the FFT solver", (int)o);
  PetscCall(PetscStrncpy(f->optname[o], name ? name : "", sizeof(f->optname[o])));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The name of a setting in errors and the view. */
const char *PPEFFTPTDMAOptionName(const PPEFFTPTDMA *f, PPEFFTOption o)
{
  return f->optname[o][0] ? f->optname[o] : PPEFFTOptionArguments[o];
}

/*
   PPEFFTPTDMASetName - (developer) the name that begins the solver's errors, the one its users
   know it by (PC fftptdma gives "PC fftptdma"); kept by PPEFFTPTDMAReset(). NULL or "" gives
   back PPE_FFT_DEFAULT_NAME.
*/
PetscErrorCode PPEFFTPTDMASetName(PPEFFTPTDMA *f, const char name[])
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(f->name, name ? name : "", sizeof(f->name)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The name that begins the solver's errors. */
const char *PPEFFTPTDMAName(const PPEFFTPTDMA *f)
{
  return f->name[0] ? f->name : PPE_FFT_DEFAULT_NAME;
}
