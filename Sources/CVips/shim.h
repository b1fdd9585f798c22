#ifndef FEDNODE_CVIPS_SHIM_H
#define FEDNODE_CVIPS_SHIM_H
#include <vips/vips.h>
#endif
