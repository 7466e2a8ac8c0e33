#ifndef SIFT_CPCRE2_SHIM_H
#define SIFT_CPCRE2_SHIM_H
// A module map cannot define macros: choose the 8-bit code unit width here.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
