/* tessera.h: umbrella header of libtessera. */
#ifndef TESSERA_H
#define TESSERA_H
#include "tessera/common.h"
#include "tessera/error.h"
#include "tessera/fault.h"
#include "tessera/device.h"
#include "tessera/node.h"
#include "tessera/cli.h"
#include "tessera/variant.h"
#include "tessera/report.h"
#include "tessera/run.h"
#include "tessera/zorder.h"
#include "tessera/layout.h"
#include "tessera/neigh.h"
#include "tessera/mesh.h"
#include "tessera/io.h"
#include "tessera/part.h"
#include "tessera/halo.h"
#include "tessera/xfer.h"
#include "tessera/colour.h"
#include "tessera/graph.h"
#include "tessera/reorder.h"
#endif
