// The names the built-in lessons assume; docs/LESSONS.md lists the same ones for the registries.
#pragma once

#include "lesson.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace ws::lesson::test {

inline Vocabulary vocab() {
    return Vocabulary{
        {"h100", "h200", "b200", "a100-80gb", "v100", "gtx580", "c1060", "p100", "k80", "rtx4090", "c2050",
         "this-machine"},
        {"i7-3960x", "laptop-2025", "epyc-64", "epyc-96", "epyc-128", "this-machine"},
        {"naive", "tiled", "regblock", "tensor"},
        {"cpu-naive", "cpu-parallel", "cpu-blas", "cuda-naive", "cuda-tiled", "cublas", "gl-naive", "gl-tiled",
         "gl-regblock"},
        {"c1060", "gtx580", "c2050", "k80", "p100"},  // no tensor cores: before Volta
        {"tensor"},
        {"c1060", "gtx580", "c2050", "k80", "p100", "v100"},  // no BF16 tensor cores: before Ampere
        true,
        {"data", "tensor", "pipeline", "hybrid"},
    };
}

inline std::string read_lesson(const std::string& name) {
    std::ifstream in(std::string(WARPSCOPE_LESSONS_DIR) + "/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace ws::lesson::test
