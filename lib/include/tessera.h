/* tessera.h: umbrella header of libtessera. */
#ifndef TESSERA_H
#define TESSERA_H
#include "tessera/common.h"
#include "tessera/error.h"
#include "tessera/device.h"
#include "tessera/zorder.h"
#include "tessera/layout.h"
#endif
