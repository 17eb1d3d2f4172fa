// The GL compute kernels' runs: buffers, dispatch in chunks, timing, read-back. Every GL call is
// followed by a glGetError check that becomes Outcome::error; a broken driver or a full GPU is
// reported, never aborts the program.
//
// Why chunks: one dispatch of a large product can run for seconds, during which a cancel cannot
// land and a desktop driver's watchdog (about 2 s) may reset the GPU. So C is dispatched as
// bands of rows (or, when one band is already too long, pieces of a band), each sized from the
// measured speed to take about kChunkMs, with at most two in flight so a hardware GPU always has
// the next one queued when it finishes one.

#include "gl/gl_backend.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "gl/context.hpp"
#include "gl/gl_error.hpp"
#include "gl/program.hpp"

namespace ws::kernels::gl {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

constexpr double kChunkMs = 30.0;          // aim of one chunk: cancel lands in ~1-2 chunks
constexpr double kFirstChunkFlops = 2e6;   // small enough to be quick even on a software renderer
constexpr long kMaxGrowth = 4;             // a chunk at most 4x the previous while learning
constexpr std::uint64_t kPollNs = 2'000'000;  // how long one fence wait blocks before a cancel check

// Uniform locations, fixed by layout(location = ...) in every shader.
constexpr GLint kUniformM = 0, kUniformN = 1, kUniformK = 2, kUniformRowOffset = 3, kUniformColOffset = 4;

#define WS_GL_CHECK(step)                                              \
  do {                                                                 \
    if (std::string ws_e_ = gl_error_after(step); !ws_e_.empty()) {    \
      out.error = std::move(ws_e_);                                    \
      return out;                                                      \
    }                                                                  \
  } while (0)

// Owners, so that every early return deletes what was created. They are declared after the
// Session in run(), so they are destroyed while its context is still current.
struct Buffers {
  GLuint ids[3] = {0, 0, 0};  // A, B, C
  ~Buffers() { glDeleteBuffers(3, ids); }
};

struct TimerQuery {
  GLuint id = 0;
  bool active = false;
  ~TimerQuery() {
    if (active) glEndQuery(GL_TIME_ELAPSED);
    if (id != 0) glDeleteQueries(1, &id);
  }
};

// The provider's context is the app's: leave no program or buffer bound in it.
struct Unbind {
  ~Unbind() {
    glUseProgram(0);
    for (GLuint i = 0; i < 3; ++i) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, 0);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  }
};

// A rectangle of workgroups: `rows` x `cols` groups starting at group (row, col).
struct Chunk {
  int row = 0, col = 0;
  int rows = 0, cols = 0;
  long groups() const { return static_cast<long>(rows) * cols; }
};

// Walks C in row-major order of workgroups. A chunk of at least one full band of rows is
// dispatched as whole bands; a smaller one as a piece of the current band.
class Chunker {
 public:
  Chunker(int row_groups, int col_groups, int max_count_y)
      : row_groups_(row_groups), col_groups_(col_groups), max_count_y_(max_count_y) {}
  bool done() const { return row_ >= row_groups_ || col_groups_ == 0; }
  long total() const { return static_cast<long>(row_groups_) * col_groups_; }

  // Chunks stay within about 0.5x-1.5x of `groups`: whole bands are rounded to the nearest
  // count, and a piece of a band that would leave a sliver behind takes the sliver too.
  Chunk next(long groups) {
    groups = std::max(groups, 1L);
    Chunk c;
    c.row = row_;
    c.col = col_;
    if (col_ == 0 && groups >= col_groups_) {
      c.cols = col_groups_;
      const long bands = (groups + col_groups_ / 2) / col_groups_;
      c.rows = static_cast<int>(std::min<long>({std::max(bands, 1L), row_groups_ - row_, max_count_y_}));
      row_ += c.rows;
      return c;
    }
    const long left = col_groups_ - col_;
    c.rows = 1;
    c.cols = static_cast<int>(left - groups < groups / 2 ? left : std::min(groups, left));
    col_ += c.cols;
    if (col_ == col_groups_) {
      col_ = 0;
      ++row_;
    }
    return c;
  }

 private:
  int row_groups_, col_groups_, max_count_y_;
  int row_ = 0, col_ = 0;
};

struct InFlight {
  GLsync fence = nullptr;
  long groups = 0;
  Clock::time_point begin, end;  // around the dispatch call
  std::optional<Clock::time_point> seen_done;  // the first time the fence was found signalled
};

bool signalled(GLsync fence) {
  const GLenum state = glClientWaitSync(fence, 0, 0);
  return state == GL_ALREADY_SIGNALED || state == GL_CONDITION_SATISFIED;
}

struct Fences {
  std::deque<InFlight> queue;
  ~Fences() {
    for (const InFlight& f : queue) glDeleteSync(f.fence);
  }
};

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

Outcome run(const Run& r) {
  Outcome out;
  out.before_kernel = true;
  Session session;
  if (session.failure()) {
    out.error = *session.failure();
    return out;
  }
  const Probe& probe = session.probe();
  if (probe.reason) {
    out.error = *probe.reason;
    return out;
  }
  const DeviceFacts& facts = *probe.facts;
  clear_gl_errors();
  session.refresh_free_memory();

  Program program;
  if (std::string e = program.build(r.kernel, r.n, r.k); !e.empty()) {
    out.error = std::move(e);
    return out;
  }
  Unbind unbind;
  glUseProgram(program.id());
  WS_GL_CHECK("glUseProgram");
  // Rows at the end that a test asks to leave undone are simply beyond the m the shader sees.
  const int m_run = std::max(0, r.m - std::max(0, r.test_skip_rows));
  glUniform1ui(kUniformM, static_cast<GLuint>(m_run));
  glUniform1ui(kUniformN, static_cast<GLuint>(r.n));
  glUniform1ui(kUniformK, static_cast<GLuint>(r.k));
  WS_GL_CHECK("glUniform1ui(m, n, k)");

  GLint max_count[2] = {0, 0};
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &max_count[0]);
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &max_count[1]);
  WS_GL_CHECK("glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT)");
  const Geometry geo = geometry(r.kernel);
  const int row_groups = ceil_div(m_run, geo.rows);
  const int col_groups = ceil_div(r.n, geo.cols);
  if (col_groups > max_count[0]) {
    out.error = std::to_string(col_groups) + " workgroups across C exceed this driver's limit of " +
                std::to_string(max_count[0]) + " (GL_MAX_COMPUTE_WORK_GROUP_COUNT)";
    return out;
  }

  const std::size_t a_bytes = static_cast<std::size_t>(r.m) * r.k * sizeof(float);
  const std::size_t b_bytes = static_cast<std::size_t>(r.k) * r.n * sizeof(float);
  const std::size_t c_bytes = static_cast<std::size_t>(r.m) * r.n * sizeof(float);
  Buffers buffers;
  glGenBuffers(3, buffers.ids);
  WS_GL_CHECK("glGenBuffers");
  const std::size_t sizes[3] = {a_bytes, b_bytes, c_bytes};
  const char* names[3] = {"glBufferData(A)", "glBufferData(B)", "glBufferData(C)"};
  for (int i = 0; i < 3; ++i) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers.ids[i]);
    // Allocated empty, so the timed upload below is the copy alone.
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(sizes[i]), nullptr,
                 i == 2 ? GL_STREAM_READ : GL_STATIC_DRAW);
    WS_GL_CHECK(names[i]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, static_cast<GLuint>(i), buffers.ids[i]);
    WS_GL_CHECK("glBindBufferBase");
  }

  glFinish();
  const auto up0 = Clock::now();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers.ids[0]);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(a_bytes), r.a);
  WS_GL_CHECK("glBufferSubData(A)");
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers.ids[1]);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(b_bytes), r.b);
  WS_GL_CHECK("glBufferSubData(B)");
  glFinish();
  WS_GL_CHECK("glFinish after the upload");
  const double upload_ms = ms_between(up0, Clock::now());

  // A software renderer's timer measures nothing useful (llvmpipe answers ~1 ns); a driver with
  // a zero-bit counter has none.
  TimerQuery query;
  bool use_timer = false;
  if (!facts.software) {
    GLint bits = 0;
    glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
    WS_GL_CHECK("glGetQueryiv(GL_TIME_ELAPSED)");
    if (bits > 0) {
      glGenQueries(1, &query.id);
      WS_GL_CHECK("glGenQueries");
      use_timer = true;
    }
  }

  const double flops_per_group = 2.0 * geo.rows * geo.cols * r.k;
  long chunk_groups = std::max(1L, static_cast<long>(kFirstChunkFlops / flops_per_group));
  bool learnt = false;  // the first chunk runs alone, so its time is its own
  Clock::time_point last_done{};
  bool any_done = false;

  const int total_runs = r.warmups + r.repeats;
  std::vector<double> wall_ms, timer_ms;
  const GLuint all_ones = 0xFFFFFFFFu;  // a NaN in fp32
  for (int run = 0; run < total_runs; ++run) {
    if (r.control.cancelled()) {
      out.cancelled = true;
      return out;
    }
    // A kernel that misses a cell leaves a NaN there, which verification cannot overlook.
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers.ids[2]);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &all_ones);
    WS_GL_CHECK("glClearBufferData(C, NaN)");
    glFinish();  // the clear is not part of the kernel's time
    WS_GL_CHECK("glFinish after clearing C");

    const auto t0 = Clock::now();
    if (use_timer) {
      glBeginQuery(GL_TIME_ELAPSED, query.id);
      WS_GL_CHECK("glBeginQuery(GL_TIME_ELAPSED)");
      query.active = true;
    }
    Chunker chunker(row_groups, col_groups, max_count[1]);
    const long total_groups = chunker.total();
    long done_groups = 0;
    Fences fences;
    while (!chunker.done() || !fences.queue.empty()) {
      while (!chunker.done() && static_cast<int>(fences.queue.size()) < (learnt ? 2 : 1)) {
        if (r.control.cancelled()) {
          out.cancelled = true;
          return out;
        }
        const Chunk c = chunker.next(chunk_groups);
        InFlight f;
        f.groups = c.groups();
        f.begin = Clock::now();
        glUniform1ui(kUniformRowOffset, static_cast<GLuint>(c.row * geo.rows));
        glUniform1ui(kUniformColOffset, static_cast<GLuint>(c.col * geo.cols));
        WS_GL_CHECK("glUniform1ui(row_offset, col_offset)");
        out.before_kernel = false;
        glDispatchCompute(static_cast<GLuint>(c.cols), static_cast<GLuint>(c.rows), 1);
        WS_GL_CHECK("glDispatchCompute");
        f.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (f.fence == nullptr) {
          out.error = "glFenceSync returned no fence: " + gl_error_after("glFenceSync");
          return out;
        }
        fences.queue.push_back(f);
        // Without a flush the driver may hold the chunk back until its queue fills.
        glFlush();
        WS_GL_CHECK("glFlush");
        fences.queue.back().end = Clock::now();
        // A software renderer runs the chunk inside the dispatch call, so it may be done already;
        // noting that now keeps the next chunk's dispatch out of this one's measured time.
        for (InFlight& g : fences.queue)
          if (!g.seen_done && signalled(g.fence)) g.seen_done = Clock::now();
      }

      InFlight& oldest = fences.queue.front();
      while (!oldest.seen_done) {
        const GLenum state = glClientWaitSync(oldest.fence, GL_SYNC_FLUSH_COMMANDS_BIT, kPollNs);
        if (state == GL_ALREADY_SIGNALED || state == GL_CONDITION_SATISFIED) {
          oldest.seen_done = Clock::now();
          break;
        }
        if (state == GL_WAIT_FAILED) {
          out.error = "glClientWaitSync failed: " + gl_error_after("glClientWaitSync");
          return out;
        }
        if (r.control.cancelled()) {
          out.cancelled = true;
          return out;
        }
      }
      const auto done = *oldest.seen_done;
      // On a hardware GPU the dispatch call returns at once and the chunk ran from when the
      // previous one finished (or from its submission, if later) until it was seen done. A
      // software renderer runs it inside the dispatch call, whose own length is then its time.
      const auto start = any_done ? std::max(oldest.end, last_done) : oldest.begin;
      const double chunk_ms = std::max(ms_between(oldest.begin, oldest.end), ms_between(start, done));
      last_done = done;
      any_done = true;
      const double ms_per_group = std::max(chunk_ms, 1e-3) / static_cast<double>(oldest.groups);
      const long fitting = std::max(1L, static_cast<long>(kChunkMs / ms_per_group));
      chunk_groups = std::min(fitting, chunk_groups * kMaxGrowth);
      learnt = true;
      done_groups += oldest.groups;
      glDeleteSync(oldest.fence);
      fences.queue.pop_front();
      WS_GL_CHECK("glDeleteSync");
      r.control.report((run + static_cast<double>(done_groups) / std::max(1L, total_groups)) / total_runs);
    }
    if (use_timer) {
      glEndQuery(GL_TIME_ELAPSED);
      query.active = false;
      WS_GL_CHECK("glEndQuery(GL_TIME_ELAPSED)");
    }
    // Shader writes to C must land before the next clear or the read-back touches C.
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    WS_GL_CHECK("glMemoryBarrier");
    glFinish();
    WS_GL_CHECK("glFinish after the kernel");
    const double wall = ms_between(t0, Clock::now());
    double timed = 0;
    if (use_timer) {
      GLuint64 ns = 0;
      glGetQueryObjectui64v(query.id, GL_QUERY_RESULT, &ns);
      WS_GL_CHECK("glGetQueryObjectui64v(GL_QUERY_RESULT)");
      timed = static_cast<double>(ns) * 1e-6;
    }
    if (run >= r.warmups) {
      wall_ms.push_back(wall);
      timer_ms.push_back(timed);
    }
    r.control.report(static_cast<double>(run + 1) / total_runs);
  }

  // A timer far below the wall clock measured nothing (some drivers answer a constant): the
  // steady clock around glFinish is then the honest figure. Below 1 ms of wall clock the two
  // differ by submission latency alone, so only longer runs can convict the timer.
  for (std::size_t i = 0; use_timer && i < wall_ms.size(); ++i)
    if (timer_ms[i] <= 0 || (wall_ms[i] > 1.0 && timer_ms[i] < 0.01 * wall_ms[i])) use_timer = false;
  out.kernel_ms = use_timer ? timer_ms : wall_ms;
  out.timing = use_timer ? "GL timer queries" : "glFinish + steady clock (GL timer not meaningful on this renderer)";

  const auto down0 = Clock::now();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers.ids[2]);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(c_bytes), r.c);
  WS_GL_CHECK("glGetBufferSubData(C)");
  out.transfer_ms = upload_ms + ms_between(down0, Clock::now());
  return out;
}

}  // namespace ws::kernels::gl
