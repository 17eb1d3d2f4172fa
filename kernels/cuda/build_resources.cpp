#include "cuda/build_resources.hpp"

#include <regex>
#include <sstream>

namespace ws::kernels::cuda {

std::vector<BuildResource> parse_ptxas_report(const std::string& text) {
  // The mangled names carry the kernel's name with its length in front ("16warptiled_kernel"), so
  // "tiled_kernel" cannot match inside "warptiled_kernel"; ILb1E / ILb0E is the template argument.
  static const std::regex entry(R"(Compiling entry function '[^']*?[0-9](naive|tiled|regblock|warptiled|tensor)_kernel(ILb([01])E)?[^']*' for '(sm_[0-9]+a?)')");
  static const std::regex used(R"(Used ([0-9]+) registers(.*?([0-9]+) bytes smem)?)");
  std::vector<BuildResource> out;
  std::istringstream in(text);
  std::string line;
  BuildResource pending;
  bool have_pending = false;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      pending = BuildResource{};
      pending.kernel = "cuda-" + m[1].str();
      pending.vector_loads = m[3].matched ? std::stoi(m[3].str()) : -1;
      have_pending = m[4].str() == kBuildResourceArch;
    } else if (have_pending && std::regex_search(line, m, used)) {
      pending.registers = std::stoi(m[1].str());
      pending.shared_bytes = m[3].matched ? std::stoi(m[3].str()) : 0;
      out.push_back(pending);
      have_pending = false;
    }
  }
  return out;
}

const std::vector<BuildResource>& build_resources() {
  static const std::vector<BuildResource> table = parse_ptxas_report(ptxas_report());
  return table;
}

}  // namespace ws::kernels::cuda
