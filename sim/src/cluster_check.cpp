// The real arithmetic of each cluster strategy, shard by shard, in fp32 as the GPUs would do it.
#include "warpscope/sim/cluster_check.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "warpscope/sim/matrices.hpp"

namespace ws::sim {
namespace {

struct Mat {
  int rows = 0, cols = 0;
  std::vector<float> v;
  Mat() = default;
  Mat(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * c, 0.0f) {}
  float& at(int r, int c) { return v[static_cast<std::size_t>(r) * cols + c]; }
  float at(int r, int c) const { return v[static_cast<std::size_t>(r) * cols + c]; }
};

// C = A * B with each cell summed in k order, as one thread of a GPU kernel sums it: the same
// cell computed on any GPU from the same operands gives the same bits.
Mat matmul(const Mat& a, const Mat& b) {
  Mat c(a.rows, b.cols);
  for (int i = 0; i < a.rows; ++i)
    for (int k = 0; k < a.cols; ++k) {
      const float x = a.at(i, k);
      for (int j = 0; j < b.cols; ++j) c.at(i, j) += x * b.at(k, j);
    }
  return c;
}

Mat transpose(const Mat& a) {
  Mat t(a.cols, a.rows);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < a.cols; ++j) t.at(j, i) = a.at(i, j);
  return t;
}

Mat rows_of(const Mat& a, int first, int count) {
  Mat r(count, a.cols);
  std::copy_n(a.v.begin() + static_cast<std::ptrdiff_t>(first) * a.cols, static_cast<std::size_t>(count) * a.cols, r.v.begin());
  return r;
}

Mat cols_of(const Mat& a, int first, int count) {
  Mat r(a.rows, count);
  for (int i = 0; i < a.rows; ++i)
    for (int j = 0; j < count; ++j) r.at(i, j) = a.at(i, first + j);
  return r;
}

void put_rows(Mat& into, const Mat& part, int first) {
  std::copy(part.v.begin(), part.v.end(), into.v.begin() + static_cast<std::ptrdiff_t>(first) * into.cols);
}

void put_cols(Mat& into, const Mat& part, int first) {
  for (int i = 0; i < part.rows; ++i)
    for (int j = 0; j < part.cols; ++j) into.at(i, first + j) = part.at(i, j);
}

// GELU (the erf form) and its derivative: smooth, so a last-bit difference in a sum stays a
// last-bit difference downstream (ReLU's step would turn it into a whole gradient).
float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678f)); }
float gelu_grad(float x) {
  return 0.5f * (1.0f + std::erf(x * 0.70710678f)) + x * 0.39894228f * std::exp(-0.5f * x * x);
}

Mat map(const Mat& a, float (*f)(float)) {
  Mat r = a;
  for (float& x : r.v) x = f(x);
  return r;
}

Mat times_gelu_grad(const Mat& g, const Mat& z) {
  Mat r = g;
  for (std::size_t i = 0; i < r.v.size(); ++i) r.v[i] *= gelu_grad(z.v[i]);
  return r;
}

Mat seeded(int rows, int cols, std::uint64_t seed, float scale) {
  Mat m(rows, cols);
  fill_uniform(m.v, seed);
  for (float& x : m.v) x *= scale;
  return m;
}

// All-reduce of one buffer per GPU, summed as the algorithm sums it; every GPU ends with the
// result (checked equal, as it must be: the ring's all-gather copies, it does not add).
std::vector<float> all_reduce(std::vector<std::vector<float>> bufs, CollectiveAlgorithm a) {
  const int n = static_cast<int>(bufs.size());
  const std::size_t size = bufs[0].size();
  if (n == 1) return bufs[0];
  if (a == CollectiveAlgorithm::tree) {
    // Up the binary tree, the deepest first; the root's sum is broadcast back down.
    const auto parent = binary_tree_parents(n);
    for (int i = n - 1; i >= 1; --i) {
      auto& up = bufs[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
      for (std::size_t e = 0; e < size; ++e) up[e] += bufs[static_cast<std::size_t>(i)][e];
    }
    return bufs[0];
  }
  auto chunk_begin = [&](int c) { return size * static_cast<std::size_t>(c) / static_cast<std::size_t>(n); };
  // Reduce-scatter: in step s GPU i passes its partial sum of chunk (i - s) mod n to GPU i + 1,
  // which adds its own; after n - 1 steps GPU i holds chunk (i + 1) mod n summed.
  for (int s = 0; s < n - 1; ++s) {
    std::vector<std::vector<float>> sent(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int c = ((i - s) % n + n) % n;
      sent[static_cast<std::size_t>(i)].assign(bufs[static_cast<std::size_t>(i)].begin() + static_cast<std::ptrdiff_t>(chunk_begin(c)),
                                                bufs[static_cast<std::size_t>(i)].begin() + static_cast<std::ptrdiff_t>(chunk_begin(c + 1)));
    }
    for (int i = 0; i < n; ++i) {
      const int to = (i + 1) % n;
      const int c = ((i - s) % n + n) % n;
      auto& dst = bufs[static_cast<std::size_t>(to)];
      const auto& src = sent[static_cast<std::size_t>(i)];
      for (std::size_t e = 0; e < src.size(); ++e) dst[chunk_begin(c) + e] = src[e] + dst[chunk_begin(c) + e];
    }
  }
  // All-gather: each summed chunk is copied round from its owner.
  std::vector<float> out(size);
  for (int i = 0; i < n; ++i) {
    const int c = (i + 1) % n;
    std::copy(bufs[static_cast<std::size_t>(i)].begin() + static_cast<std::ptrdiff_t>(chunk_begin(c)),
              bufs[static_cast<std::size_t>(i)].begin() + static_cast<std::ptrdiff_t>(chunk_begin(c + 1)),
              out.begin() + static_cast<std::ptrdiff_t>(chunk_begin(c)));
  }
  return out;
}

Mat all_reduce(const std::vector<Mat>& parts, CollectiveAlgorithm a) {
  std::vector<std::vector<float>> bufs;
  for (const Mat& p : parts) bufs.push_back(p.v);
  Mat r(parts[0].rows, parts[0].cols);
  r.v = all_reduce(std::move(bufs), a);
  return r;
}

struct MlpData {
  Mat x, t;
  std::vector<Mat> w;
};

struct MlpResult {
  Mat y, dx;
  std::vector<Mat> dw;
};

MlpData make_mlp(const MlpShape& s) {
  MlpData d;
  d.x = seeded(s.batch, s.width, 42, 1.0f);
  d.t = seeded(s.batch, s.width, 43, 1.0f);
  // Uniform in (-a, a) has variance a^2/3: a = sqrt(6 / in) keeps a GELU layer's output on the
  // scale of its input (He et al. 2015), so a deep stack neither vanishes nor blows up.
  for (int l = 0; l < s.layers; ++l)
    d.w.push_back(seeded(s.in(l), s.out(l), 100 + static_cast<std::uint64_t>(l), std::sqrt(6.0f / static_cast<float>(s.in(l)))));
  return d;
}

// One device, the whole batch: the reference. Also what every data-parallel GPU and every
// micro-batch runs on its rows.
MlpResult mlp_step(const Mat& x, const Mat& t, const std::vector<Mat>& w) {
  const int layers = static_cast<int>(w.size());
  std::vector<Mat> h{x}, z;
  for (int l = 0; l < layers; ++l) {
    z.push_back(matmul(h.back(), w[static_cast<std::size_t>(l)]));
    h.push_back(l + 1 < layers ? map(z.back(), gelu) : z.back());
  }
  MlpResult r;
  r.y = h.back();
  Mat g = r.y;
  for (std::size_t i = 0; i < g.v.size(); ++i) g.v[i] -= t.v[i];
  r.dw.resize(w.size());
  for (int l = layers - 1; l >= 0; --l) {
    const auto li = static_cast<std::size_t>(l);
    if (l + 1 < layers) g = times_gelu_grad(g, z[li]);
    r.dw[li] = matmul(transpose(h[li]), g);
    g = matmul(g, transpose(w[li]));
  }
  r.dx = g;
  return r;
}

// The Megatron split over `t` GPUs of rows x..: each GPU's shard computed alone, the row-split
// layers' partial sums all-reduced. `drop` >= 0 zeroes that GPU's shard of the results.
MlpResult tensor_step(const MlpShape& s, const Mat& x, const Mat& t, const std::vector<Mat>& w, int gpus,
                      CollectiveAlgorithm a, int drop) {
  const int shard = s.hidden / gpus;
  const int layers = s.layers;
  MlpResult r;
  r.dw.resize(w.size());
  for (int l = 0; l < layers; ++l) r.dw[static_cast<std::size_t>(l)] = Mat(w[static_cast<std::size_t>(l)].rows, w[static_cast<std::size_t>(l)].cols);
  // Per pair: its input (replicated), the column shards' pre-activations and activations per GPU,
  // and the all-reduced output pre-activation.
  struct Pair {
    Mat in;
    std::vector<Mat> ze, ae;
    Mat zo;
  };
  std::vector<Pair> pairs;
  Mat h = x;
  for (int l = 0; l < layers; l += 2) {
    Pair p;
    p.in = h;
    std::vector<Mat> partial;
    for (int g = 0; g < gpus; ++g) {
      p.ze.push_back(matmul(h, cols_of(w[static_cast<std::size_t>(l)], g * shard, shard)));
      p.ae.push_back(map(p.ze.back(), gelu));
      partial.push_back(matmul(p.ae.back(), rows_of(w[static_cast<std::size_t>(l + 1)], g * shard, shard)));
      if (g == drop) std::fill(partial.back().v.begin(), partial.back().v.end(), 0.0f);
    }
    p.zo = all_reduce(partial, a);
    h = l + 2 < layers ? map(p.zo, gelu) : p.zo;
    pairs.push_back(std::move(p));
  }
  r.y = h;
  Mat g = r.y;
  for (std::size_t i = 0; i < g.v.size(); ++i) g.v[i] -= t.v[i];
  for (int pi = static_cast<int>(pairs.size()) - 1; pi >= 0; --pi) {
    const Pair& p = pairs[static_cast<std::size_t>(pi)];
    const int e = 2 * pi, o = e + 1;
    if (o + 1 < layers) g = times_gelu_grad(g, p.zo);
    std::vector<Mat> partial;
    for (int gpu = 0; gpu < gpus; ++gpu) {
      const Mat wo = rows_of(w[static_cast<std::size_t>(o)], gpu * shard, shard);
      const Mat we = cols_of(w[static_cast<std::size_t>(e)], gpu * shard, shard);
      Mat dwo = matmul(transpose(p.ae[static_cast<std::size_t>(gpu)]), g);
      const Mat dze = times_gelu_grad(matmul(g, transpose(wo)), p.ze[static_cast<std::size_t>(gpu)]);
      Mat dwe = matmul(transpose(p.in), dze);
      partial.push_back(matmul(dze, transpose(we)));
      if (gpu == drop) {
        std::fill(dwo.v.begin(), dwo.v.end(), 0.0f);
        std::fill(dwe.v.begin(), dwe.v.end(), 0.0f);
        std::fill(partial.back().v.begin(), partial.back().v.end(), 0.0f);
      }
      put_rows(r.dw[static_cast<std::size_t>(o)], dwo, gpu * shard);
      put_cols(r.dw[static_cast<std::size_t>(e)], dwe, gpu * shard);
    }
    g = all_reduce(partial, a);
  }
  r.dx = g;
  return r;
}

void zero(MlpResult& r) {
  for (Mat* m : {&r.y, &r.dx}) std::fill(m->v.begin(), m->v.end(), 0.0f);
  for (Mat& m : r.dw) std::fill(m.v.begin(), m.v.end(), 0.0f);
}

// Row blocks of the batch, each run by `run`, outputs stacked and gradients summed by `sum`.
template <class Run, class Sum>
MlpResult split_rows(const MlpShape& s, const MlpData& d, int parts, int drop, Run run, Sum sum) {
  const int rows = s.batch / parts;
  std::vector<MlpResult> each;
  for (int p = 0; p < parts; ++p) {
    each.push_back(run(rows_of(d.x, p * rows, rows), rows_of(d.t, p * rows, rows)));
    if (p == drop) zero(each.back());
  }
  MlpResult r;
  r.y = Mat(s.batch, s.width);
  r.dx = Mat(s.batch, s.width);
  for (int p = 0; p < parts; ++p) {
    put_rows(r.y, each[static_cast<std::size_t>(p)].y, p * rows);
    put_rows(r.dx, each[static_cast<std::size_t>(p)].dx, p * rows);
  }
  for (int l = 0; l < s.layers; ++l) {
    std::vector<Mat> grads;
    for (const auto& e : each) grads.push_back(e.dw[static_cast<std::size_t>(l)]);
    r.dw.push_back(sum(grads));
  }
  return r;
}

CheckedQuantity compare(const std::string& name, const Mat& split, const Mat& single, bool exact_expected) {
  CheckedQuantity q;
  q.name = name;
  q.exact_expected = exact_expected;
  q.bit_exact = split.v == single.v;
  for (std::size_t i = 0; i < single.v.size(); ++i) {
    q.max_abs_diff = std::max(q.max_abs_diff, static_cast<double>(std::fabs(split.v[i] - single.v[i])));
    q.max_abs_value = std::max(q.max_abs_value, static_cast<double>(std::fabs(single.v[i])));
  }
  if (split.v.size() != single.v.size()) q.max_abs_diff = INFINITY;
  q.ok = exact_expected ? q.bit_exact : q.max_abs_diff <= kCheckTolerance * q.max_abs_value;
  return q;
}

double step_flops(const ClusterConfig& c) {
  if (c.workload == Workload::gemm) return 2.0 * c.gemm.m * c.gemm.n * c.gemm.k;
  double f = 0;
  for (int l = 0; l < c.mlp.layers; ++l) f += 6.0 * c.mlp.batch * c.mlp.in(l) * c.mlp.out(l);
  return f;
}

ClusterCheck check_mlp(const ClusterConfig& c, int drop) {
  const MlpShape& s = c.mlp;
  const MlpData d = make_mlp(s);
  const MlpResult single = mlp_step(d.x, d.t, d.w);
  const int per_node = c.gpus / c.nodes;
  auto ring_sum = [&](const std::vector<Mat>& g) { return all_reduce(g, c.algorithm); };
  MlpResult split;
  bool rows_independent = false;  // Y and dX of each row computed by one GPU alone
  switch (c.strategy) {
    case Strategy::data:
      split = split_rows(s, d, c.gpus, drop, [&](const Mat& x, const Mat& t) { return mlp_step(x, t, d.w); }, ring_sum);
      rows_independent = true;
      break;
    case Strategy::pipeline:
      // Stages change where each layer runs, not its arithmetic; micro-batches change the order
      // the weight gradients are summed in: accumulated micro-batch after micro-batch.
      split = split_rows(s, d, c.micro_batches, drop, [&](const Mat& x, const Mat& t) { return mlp_step(x, t, d.w); },
                         [](const std::vector<Mat>& g) {
                           Mat acc = g[0];
                           for (std::size_t i = 1; i < g.size(); ++i)
                             for (std::size_t e = 0; e < acc.v.size(); ++e) acc.v[e] += g[i].v[e];
                           return acc;
                         });
      rows_independent = true;
      break;
    case Strategy::tensor:
      split = tensor_step(s, d.x, d.t, d.w, c.gpus, c.algorithm, drop);
      break;
    case Strategy::hybrid:
      // Each node runs the tensor split on its rows; the gradients are all-reduced across nodes.
      // The model's rings run per shard, this one over whole matrices: the same node sums, only
      // which node starts an element's sum may differ, which the tolerance covers.
      split = split_rows(s, d, c.nodes, drop < 0 ? -1 : drop / per_node,
                         [&](const Mat& x, const Mat& t) {
                           MlpShape rows = s;
                           rows.batch = x.rows;
                           return tensor_step(rows, x, t, d.w, per_node, c.algorithm, -1);
                         },
                         ring_sum);
      break;
  }
  ClusterCheck r;
  r.quantities.push_back(compare("Y", split.y, single.y, rows_independent));
  for (int l = 0; l < s.layers; ++l)
    r.quantities.push_back(compare("dW L" + std::to_string(l + 1), split.dw[static_cast<std::size_t>(l)],
                                   single.dw[static_cast<std::size_t>(l)], false));
  r.quantities.push_back(compare("dX", split.dx, single.dx, rows_independent));
  return r;
}

ClusterCheck check_gemm(const ClusterConfig& c, int drop) {
  const GemmShape& s = c.gemm;
  const Mat a = seeded(s.m, s.k, 42, 1.0f), b = seeded(s.k, s.n, 43, 1.0f);
  const Mat single = matmul(a, b);
  Mat split(s.m, s.n);
  const int per_node = c.gpus / c.nodes;
  // Partial products over K shards of `gpus` GPUs for the rows [first, first + rows), all-reduced.
  auto k_split = [&](int first, int rows, int gpus, int drop_in) {
    const int kk = s.k / gpus;
    std::vector<Mat> partial;
    for (int g = 0; g < gpus; ++g) {
      partial.push_back(matmul(cols_of(rows_of(a, first, rows), g * kk, kk), rows_of(b, g * kk, kk)));
      if (g == drop_in) std::fill(partial.back().v.begin(), partial.back().v.end(), 0.0f);
    }
    return all_reduce(partial, c.algorithm);
  };
  bool exact = false;
  switch (c.strategy) {
    case Strategy::data: {
      const int rows = s.m / c.gpus;
      for (int g = 0; g < c.gpus; ++g) {
        Mat part = matmul(rows_of(a, g * rows, rows), b);
        if (g == drop) std::fill(part.v.begin(), part.v.end(), 0.0f);
        put_rows(split, part, g * rows);
      }
      exact = true;
      break;
    }
    case Strategy::tensor: split = k_split(0, s.m, c.gpus, drop); break;
    case Strategy::hybrid: {
      const int rows = s.m / c.nodes;
      for (int node = 0; node < c.nodes; ++node)
        put_rows(split, k_split(node * rows, rows, per_node, drop >= 0 && drop / per_node == node ? drop % per_node : -1),
                 node * rows);
      break;
    }
    case Strategy::pipeline:
      throw std::invalid_argument("pipeline needs layers to make stages of: use the mlp workload, not one multiply");
  }
  ClusterCheck r;
  r.quantities.push_back(compare("C", split, single, exact));
  return r;
}

}  // namespace

ClusterConfig checkable(const ClusterConfig& config) {
  ClusterConfig c = validate_cluster(config);
  if (step_flops(c) <= kMaxCheckFlops) return c;
  if (c.workload == Workload::gemm) {
    c.gemm = {4 * c.gpus, 32, 8 * c.gpus};
  } else {
    // Rows split over GPUs (data), nodes (hybrid) or micro-batches (pipeline); hidden over the
    // GPUs of a tensor group. A few rows and columns each are enough to exercise every sum.
    const int rows = c.strategy == Strategy::data       ? c.gpus
                     : c.strategy == Strategy::hybrid   ? c.nodes
                     : c.strategy == Strategy::pipeline ? c.micro_batches
                                                        : 1;
    c.mlp.batch = 4 * rows;  // 4 rows a share: a share's own sums then differ in order from one device's
    c.mlp.width = 8;
    c.mlp.hidden = 2 * c.gpus;
  }
  return validate_cluster(c);
}

ClusterCheck check_cluster(const ClusterConfig& config, int drop_gpu) {
  const ClusterConfig c = checkable(config);
  ClusterCheck r = c.workload == Workload::gemm ? check_gemm(c, drop_gpu) : check_mlp(c, drop_gpu);
  r.tolerance = kCheckTolerance;
  r.checked = c;
  r.reduced = c.workload == Workload::gemm
                  ? (c.gemm.m != config.gemm.m || c.gemm.n != config.gemm.n || c.gemm.k != config.gemm.k)
                  : (c.mlp.batch != config.mlp.batch || c.mlp.width != config.mlp.width || c.mlp.hidden != config.mlp.hidden);
  r.ok = std::all_of(r.quantities.begin(), r.quantities.end(), [](const CheckedQuantity& q) { return q.ok; });
  return r;
}

}  // namespace ws::sim
