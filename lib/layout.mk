# lib/layout.mk: the layout module.
# zorder: stretched Morton code and plane rank tables.
lib_libtessera_la_SOURCES += lib/src/zorder.c
tsr_include_HEADERS += lib/include/tessera/zorder.h

# layout: tsr_layout_t builders, generic offset, transform.
lib_libtessera_la_SOURCES += lib/src/layout.c lib/src/layout_internal.h
tsr_include_HEADERS += lib/include/tessera/layout.h
CU_FILES += lib/src/cuda/layout_transform.cu
if HAVE_CUDA
lib_libtessera_la_SOURCES += lib/src/cuda/layout_transform.cu
endif
