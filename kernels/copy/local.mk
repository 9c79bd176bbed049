# kernels/copy/local.mk: a copy kernel written through the layout offsets (CPU
# and CUDA variants, variants.def), libcopy.la.
noinst_LTLIBRARIES += kernels/copy/libcopy.la
kernels_copy_libcopy_la_SOURCES = kernels/copy/copy.h kernels/copy/copy_cpu.c \
	kernels/copy/copy_variants.c
kernels_copy_libcopy_la_LIBADD =
CU_FILES += kernels/copy/copy_cuda.cu
if HAVE_CUDA
kernels_copy_libcopy_la_SOURCES += kernels/copy/copy_cuda.cu
kernels_copy_libcopy_la_LIBADD += $(CUDA_LIBS) -lstdc++
endif
EXTRA_DIST += kernels/copy/variants.def
COPY_LDADD = kernels/copy/libcopy.la lib/libtessera.la $(HDF5_LIBS) -lm
