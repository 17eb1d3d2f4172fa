# Fails when any of BINARIES lists libcublas as a load-time dependency (DT_NEEDED): cuBLAS must be
# loaded with dlopen by the cublas kernels only, so a CUDA build starts without the library.
find_program(READELF readelf REQUIRED)
foreach(bin IN LISTS BINARIES)
  execute_process(COMMAND ${READELF} -d ${bin} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "readelf -d ${bin} failed")
  endif()
  if(dyn MATCHES "NEEDED[^\n]*libcublas")
    message(FATAL_ERROR "${bin} needs libcublas at load time:\n${dyn}")
  endif()
  message(STATUS "${bin}: no load-time libcublas")
endforeach()
