// The English and Korean UI string tables and the lookup that never returns null.
#include "i18n.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <set>

namespace ws::lesson {

namespace {

struct Entry {
    std::string_view key;
    const char* en;
    const char* ko;  // nullptr: not translated yet, English is shown
};

// Korean strings may reorder arguments with {0} {1}; each string is consistent on its own.
constexpr Entry kTable[] = {
    // Window and panel titles.
    {"panel.real_run", "Real run", "실제 실행"},
    {"panel.gpu", "Simulated GPU", "시뮬레이션 GPU"},
    {"panel.cpu", "CPU cores", "CPU 코어"},
    {"panel.matrix", "Output matrix C", "출력 행렬 C"},
    {"panel.timeline", "Timeline", "타임라인"},
    {"sim.simulating_percent", "Simulating the launch: {} % done. The caption's figures come when it ends.",
     "시뮬레이션 중: {} % 완료. 설명의 수치는 끝나면 나옵니다."},
    {"sim.wave_count_one", "1 wave", "웨이브 1번"},
    {"sim.wave_count_many", "{} waves", "웨이브 {}번"},
    {"panel.inspector", "Inspector", "상세 정보"},
    {"panel.timers", "Timers", "측정 시간"},
    {"panel.caption", "Caption", "설명"},
    {"panel.lesson", "Lesson", "강의"},
    {"panel.settings", "Settings", "설정"},
    {"panel.view", "View", "보기"},
    {"panel.roofline", "Roofline", "루프라인"},
    {"panel.generations", "GPU generations", "GPU 세대"},
    // Under a caption that quotes historical figures (lesson/facts.cpp).
    {"caption.source", "Source:", "출처:"},
    // The GPU generations table (gui/generations_panel.cpp).
    {"generations.gpu", "GPU", "GPU"},
    {"generations.year", "Year", "연도"},
    {"generations.sms", "SMs", "SM 수"},
    {"generations.cores", "FP32 cores", "FP32 코어"},
    {"generations.fp32", "FP32 TFLOP/s", "FP32 TFLOP/s"},
    {"generations.tensor_cores", "Tensor cores", "텐서 코어"},
    {"generations.tensor", "Tensor TFLOP/s", "텐서 TFLOP/s"},
    {"generations.bandwidth", "Memory GB/s", "메모리 GB/s"},
    {"generations.none", "none", "없음"},
    {"generations.chart", "Peak (bars)", "최대 성능(막대)"},
    {"generations.note_short",
     "Peaks computed from each preset's parts (sources: assets/presets). Bars on one scale: tensor cores in colour, FP32 white.",
     "최대 성능은 각 프리셋의 구성으로 계산(출처: assets/presets). 막대는 같은 눈금: 텐서 코어는 색, FP32는 흰 선."},
    {"generations.note",
     "Every GPU preset, oldest first. Peaks are computed from each preset's parts (SMs × cores × clock; dense tensor "
     "figures); the presets' datasheet sources are in assets/presets. Bars on one scale: tensor cores in colour, FP32 as the white line.",
     "모든 GPU 프리셋, 오래된 순서. 최대 성능은 각 프리셋의 구성(SM × 코어 × 클럭, 텐서는 밀집 연산)으로 계산했고, "
     "데이터시트 출처는 assets/presets에 있습니다. 막대는 모두 같은 눈금: 텐서 코어는 색 막대, FP32는 흰 선입니다."},
    {"caption.sources", "Sources:", "출처:"},
    {"panel.cluster", "Cluster (simulated)", "클러스터 (시뮬레이션)"},
    // The cluster view (docs/CLUSTER.md).
    {"cluster.strategy", "Strategy", "병렬화 방식"},
    {"cluster.gpus", "GPUs", "GPU 수"},
    {"cluster.nodes", "Nodes (0: auto)", "노드 수 (0: 자동)"},
    {"cluster.micro_batches", "Micro-batches", "마이크로배치"},
    {"cluster.size", "Size (batch = width)", "크기 (배치 = 폭)"},
    {"cluster.scaling", "{} GPUs: {}× faster, {} % efficiency; {} % of the time in collectives (simulated)",
     "GPU {0}개: {1}배 빠름, 효율 {2} %; 시간의 {3} %가 집합 통신 (시뮬레이션)"},
    {"cluster.links", "inside a node: {} · between nodes: {} · step {} (one GPU: {})",
     "노드 안: {0} · 노드 사이: {1} · 한 스텝 {2} (GPU 1개: {3})"},
    {"cluster.bubble", "pipeline bubble: {} % idle; (S-1)/(M+S-1) = {} % with free links",
     "파이프라인 버블: 유휴 {0} %; 링크 비용이 없으면 (S-1)/(M+S-1) = {1} %"},
    {"cluster.legend", "Bars: green compute, amber collectives, blue copies, grey idle. Simulated from datasheet figures, not measured.",
     "막대: 초록 계산, 주황 집합 통신, 파랑 복사, 회색 유휴. 데이터시트 값으로 시뮬레이션, 측정 아님."},
    {"cluster.error", "Cannot split this way: {}", "이렇게 나눌 수 없음: {}"},
    {"cluster.real_unavailable", "Real split on this machine (cuda-multi): {}", "이 컴퓨터에서 실제 분할(cuda-multi): {}"},
    {"cluster.real_run", "Split one real {0}³ multiply over this machine's GPUs", "실제 {0}³ 곱셈 하나를 이 컴퓨터의 GPU들에 나누기"},
    {"cluster.curve", "Scaling curve", "확장 곡선"},
    {"cluster.curve_title", "Speed-up (up) against GPUs (across), both doubling", "속도 향상(세로)과 GPU 수(가로), 둘 다 두 배 눈금"},
    {"cluster.curve_legend", "amber: simulated; grey diagonal: ideal", "주황: 시뮬레이션, 회색 대각선: 이상적"},
    {"cluster.real_needs_gpus", "needs 2 CUDA GPUs; this machine has {}", "CUDA GPU가 2개 이상 필요한데 이 컴퓨터에는 {}개 있습니다"},
    {"cluster.real_running", "Running the real split...", "실제 분할 실행 중..."},
    {"cluster.real_result", "Measured here, {0}³ fp32: {1}, {2} ms; one GPU, {3} ms: {4}× faster ({5})",
     "이 컴퓨터에서 측정, {0}³ fp32: {1}, {2} ms; GPU 1개, {3} ms: {4}배 빠름 ({5})"},
    {"cluster.real_failed", "Real split: {}", "실제 분할: {}"},
    // The roofline panel.
    {"roofline.x_axis", "FLOP per byte of DRAM traffic (arithmetic intensity, log)", "DRAM 1바이트당 FLOP (연산 강도, 로그)"},
    {"roofline.y_axis", "GFLOP/s (log)", "GFLOP/s (로그)"},
    {"roofline.here", "measured here: {} run(s); intensity from the minimum traffic, 4·(MK+KN+MN) bytes",
     "이 컴퓨터에서 측정: {}회; 연산 강도는 최소 트래픽 4·(MK+KN+MN) 바이트 기준"},
    {"roofline.no_run", "measured here: no run finished yet", "이 컴퓨터에서 측정: 아직 끝난 실행 없음"},
    {"roofline.elsewhere", "measured on {} ({}, {}): {} run(s); minimum traffic",
     "{0}에서 측정 ({1}, {2}): {3}회; 최소 트래픽 기준"},
    {"roofline.simulated", "simulated on {}: {}; the model's DRAM bytes and time",
     "{0} 시뮬레이션: {1}; 모델의 DRAM 바이트와 시간"},
    {"roofline.simulating", "simulated on {}: {}; simulating…", "{0} 시뮬레이션: {1}; 시뮬레이션 중…"},
    {"roofline.roofs_from", "Roofs from the presets, not measured: the GPU's datasheet; this CPU's cores × SIMD × FMA × clock",
     "지붕은 프리셋 값이며 측정값이 아님: GPU는 데이터시트, 이 CPU는 코어 × SIMD × FMA × 클럭"},
    // Where the text is large for the panel (2× text at 1280×720): the same facts, shorter.
    {"roofline.here_short", "measured here: {} run(s), minimum traffic", "이 컴퓨터에서 측정: {}회, 최소 트래픽"},
    {"measured.on_where", "measured on {} ({}, {})", "{0}에서 측정 ({1}, {2})"},
    {"measured.a_cpu", "a CPU", "CPU"},
    {"measured.a_gpu", "a GPU", "GPU"},
    {"roofline.simulated_short", "simulated on {}: {}", "{0} 시뮬레이션: {1}"},
    {"roofline.roofs_short", "Roofs: presets, not measured", "지붕: 프리셋 값, 측정 아님"},
    {"roofline.x_axis_short", "FLOP per byte (log)", "바이트당 FLOP (로그)"},
    {"roofline.too_small", "Too small to draw the roofline", "루프라인을 그리기에 너무 작음"},
    {"roofline.wrong", "WRONG RESULT: failed verification", "잘못된 결과: 검증 실패"},
    // Controls.
    {"control.m", "M", "M"},
    {"control.n", "N", "N"},
    {"control.k", "K", "K"},
    {"control.threads", "Threads", "스레드"},
    {"control.kernel", "Kernel", "커널"},
    {"control.block_size", "Block size", "블록 크기"},
    {"control.run", "Run", "실행"},
    {"control.cancel", "Cancel", "취소"},
    {"control.play", "Play", "재생"},
    {"control.pause", "Pause", "일시정지"},
    {"control.step", "Step", "한 사이클"},
    {"control.restart", "Restart", "처음부터"},
    {"control.speed", "Speed", "속도"},
    {"control.speed_value", "{} cycles/s", "초당 {} 사이클"},
    {"control.preset", "Preset", "프리셋"},
    {"control.gpu_preset", "GPU preset", "GPU 프리셋"},
    {"control.cpu_preset", "CPU preset", "CPU 프리셋"},
    {"control.folded", "Settings: {} · {} · {} · {}", "설정: {} · {} · {} · {}"},
    {"control.language", "Language", "언어"},
    {"control.theme", "Theme", "테마"},
    {"control.theme_dark", "Dark", "어둡게"},
    {"control.theme_light", "Light (high contrast)", "밝게 (고대비)"},
    {"control.clean_mode", "Clean mode", "발표용 화면"},
    {"control.fullscreen", "Fullscreen", "전체 화면"},
    {"control.ui_scale", "UI scale", "UI 크기"},
    {"control.projector", "Projector mode (large captions)", "프로젝터 모드 (큰 자막)"},
    {"control.zoom_out", "Zoom out", "축소"},
    // Lesson player.
    {"lesson.open", "Open lesson...", "강의 열기..."},
    {"panel.measured", "Measured runs", "측정 결과"},
    {"control.run_anyway", "Run anyway", "그래도 실행"},
    {"measured.open", "Open a run measured elsewhere (a `warpscope bench --json` file)...",
     "다른 컴퓨터에서 측정한 결과 열기 (`warpscope bench --json` 파일)..."},
    {"measured.none", "No run measured elsewhere is shown", "다른 컴퓨터에서 측정한 결과 없음"},
    {"measured.shipped", "Runs measured on a GPU server, shipped with warpscope (click to show):",
     "warpscope에 들어 있는 GPU 서버 측정 결과 (눌러서 표시):"},
    {"lesson.next", "Next", "다음"},
    {"lesson.prev", "Previous", "이전"},
    {"lesson.restart", "Back to the start", "처음으로"},
    {"lesson.exit", "Leave lesson", "강의 끝내기"},
    {"lesson.step_of", "Step {} of {}", "{0} / {1} 단계"},
    {"lesson.load_failed", "Cannot load the lesson", "강의를 불러올 수 없습니다"},
    {"lesson.state_kept", "The current state was kept.", "현재 상태는 그대로 유지됩니다."},
    // Legend of warp states.
    {"legend.issuing", "issuing", "명령 실행 중"},
    {"legend.waiting_memory", "waiting on memory", "메모리 대기"},
    {"legend.waiting_barrier", "waiting at barrier", "배리어 대기"},
    {"legend.on_tensor_core", "on the tensor core", "텐서 코어에서 계산 중"},
    // The timeline, the output matrices, the CPU cards, the inspector and the animation's note.
    {"timeline.finished", "The simulated GPU finished at {} ms; the CPU cores are {} % through.",
     "시뮬레이션 GPU는 {} ms에 끝났고, CPU 코어는 {} % 진행했습니다."},
    {"timeline.seeking", "seeking to cycle {}...", "사이클 {} 위치로 이동 중..."},
    {"timeline.seeking_simulating", "seeking to cycle {}: simulating... {} %", "사이클 {} 위치로 이동 중: 시뮬레이션 {} %"},
    {"timeline.waiting_mid_run", "simulating the whole run to show its middle: {} % done",
     "실행 전체를 시뮬레이션한 뒤 중간을 보여 줍니다: {} % 완료"},
    {"timeline.waiting_first_issue", "simulating up to the first instruction issued: {} % done",
     "첫 명령이 실행될 때까지 시뮬레이션하는 중: {} % 완료"},
    {"timeline.buffering", "waiting for the simulation: {} % done", "시뮬레이션을 기다리는 중: {} % 완료"},
    {"timeline.simulating_to", "simulating... {} % (to cycle {})", "시뮬레이션 중... {} % (사이클 {}까지)"},
    {"timeline.simulating", "simulating...", "시뮬레이션 중..."},
    {"timeline.simulated_kernel", "simulated: {}, {} kernel", "시뮬레이션: {}, {} 커널"},
    {"timeline.cycle_of", "cycle {} of {}  =  {} of {} ms at {} MHz", "사이클 {} / {}  =  {} / {} ms ({} MHz)"},
    {"timeline.cycle_at", "cycle {}  =  {} ms at {} MHz", "사이클 {}  =  {} ms ({} MHz)"},
    {"timeline.restart", "Restart (Home)", "처음으로 (Home)"},
    {"timeline.step_back", "Step back one cycle (Left; Shift: 1 %)", "한 사이클 뒤로 (왼쪽 화살표; Shift: 1 %)"},
    {"timeline.step_forward", "Step one cycle (Right; Shift: 1 %)", "한 사이클 앞으로 (오른쪽 화살표; Shift: 1 %)"},
    {"matrix.gpu_c", "GPU's C: {} %", "GPU의 C: {} %"},
    {"matrix.cpu_c", "CPU's C: {} %", "CPU의 C: {} %"},
    {"matrix.gpu_c_brief", "GPU {}%", "GPU {}%"},
    {"matrix.cpu_c_brief", "CPU {}%", "CPU {}%"},
    {"matrix.colour_note", "colour: the SM or core that finished the cell", "색: 그 칸을 끝낸 SM 또는 코어"},
    {"cpu.cores_shown", "{} of its {} cores shown, naive loop, one cell at a time",
     "코어 {1}개 중 {0}개 표시, 단순 루프, 한 번에 한 칸"},
    {"cpu.core", "Core {}", "코어 {}"},
    {"cpu.branch_predictor", "branch predictor", "분기 예측기"},
    {"cpu.ooo_window", "out-of-order window", "비순차 실행 창"},
    {"cpu.caches", "caches: L1 {} KB, L2 {} KB, L3 {} MB", "캐시: L1 {} KB, L2 {} KB, L3 {} MB"},
    {"cpu.simd_unit", "SIMD unit: {}, {} lanes", "SIMD 장치: {}, 레인 {}개"},
    {"cpu.cell_at", "cell C[{}][{}]:", "칸 C[{}][{}]:"},
    {"cpu.cell_k_of", "k {} of {}", "k {} / {}"},
    {"cpu.cell_name", "C[{}][{}]", "C[{}][{}]"},
    {"cpu.cell_k", "k {}/{}", "k {}/{}"},
    {"cpu.finished", "finished its cells", "맡은 칸을 모두 끝냄"},
    {"cpu.cells", "{} of {} cells ({} %)", "칸 {1}개 중 {0}개 ({2} %)"},
    {"cpu.cells_brief", "{}/{} cells", "칸 {}/{}"},
    {"cpu.hits", "L1 hits {} %, DRAM {} %", "L1 적중 {} %, DRAM {} %"},
    {"inspector.lane", "SM {}, warp {}, lane {}", "SM {}, 워프 {}, 레인 {}"},
    {"inspector.block", "block ({},{}), warp {} of the block, thread ({},{})", "블록 ({},{}), 블록의 워프 {}, 스레드 ({},{})"},
    {"inspector.cells", "computes {} cells of C in registers: k {} of {} each", "C의 칸 {}개를 레지스터에서 계산: 각각 k {} / {}"},
    {"inspector.cell", "computes C[{}][{}]: k {} of {}, partial sum {}", "C[{}][{}] 계산: k {} / {}, 부분합 {}"},
    {"inspector.no_cell", "no cell of C (past the matrix edge)", "C의 칸 없음 (행렬 가장자리 밖)"},
    {"inspector.no_block", "no block resident", "올라온 블록 없음"},
    {"inspector.warp", "warp: {}", "워프: {}"},
    {"inspector.core", "Core {} of {}", "{1}의 코어 {0}"},
    {"inspector.core_cell", "computes C[{}][{}]: k {} of {}", "C[{}][{}] 계산: k {} / {}"},
    {"inspector.core_cells", "{} of {} cells done ({} %)", "칸 {1}개 중 {0}개 완료 ({2} %)"},
    {"inspector.core_loads", "loads: L1 {}, L2 {}, L3 {}, DRAM {}", "로드: L1 {}, L2 {}, L3 {}, DRAM {}"},
    {"sim.animating", "animating {}", "애니메이션: {}"},
    {"sim.real_run_uses", " (the real run uses {})", " (실제 실행은 {})"},
    {"sim.nearest_model", "; {} is not modelled: {}, the nearest model, is animated",
     "; {0}: 모델 없음, 가장 가까운 모델 {1} 표시"},
    {"sim.other_model", "; the real run is {}; the {} model is animated", "; 실제 실행: {0}, 애니메이션: {1} 모델"},
    {"label.key_hints", "Space play/pause   Left/Right step   F11 fullscreen   F12 screenshot   C clean mode   P projector",
     "Space 재생/일시정지   왼쪽/오른쪽 단계   F11 전체 화면   F12 스크린샷   C 깔끔한 화면   P 프로젝터"},
    {"legend.not_resident", "not resident", "SM에 없음"},
    {"legend.done", "done", "완료"},
    {"legend.eligible", "ready, not picked", "준비됨, 대기"},
    {"legend.waiting_dependency", "waiting on arithmetic", "연산 결과 대기"},
    {"legend.masked", "no cell (edge)", "맡은 칸 없음 (가장자리)"},
    {"label.measured_here", "Measured on this machine", "이 컴퓨터에서 측정"},
    {"label.openblas_core", "OpenBLAS core: {}", "OpenBLAS 코어: {}"},
    {"label.openblas_core_corrected", "OpenBLAS core: {} (OpenBLAS by itself detected {})",
     "OpenBLAS 코어: {} (OpenBLAS가 스스로 감지한 코어는 {})"},
    {"label.openblas_core_user", "OpenBLAS core: {} (OPENBLAS_CORETYPE={} set by the user)",
     "OpenBLAS 코어: {} (사용자 설정: OPENBLAS_CORETYPE={})"},
    {"label.openblas_core_user_older", "OpenBLAS core: {} (OPENBLAS_CORETYPE={} set by the user: {} on a CPU with {})",
     "OpenBLAS 코어: {} (사용자 설정: OPENBLAS_CORETYPE={}, {} 사용, 이 CPU는 {} 지원)"},
    {"label.openblas_core_ignored", "OpenBLAS core: {} (OpenBLAS ignored OPENBLAS_CORETYPE={})",
     "OpenBLAS 코어: {} (OpenBLAS가 따르지 않은 설정: OPENBLAS_CORETYPE={})"},
    {"control.cpu_kernel", "CPU kernel", "CPU 커널"},
    {"control.gpu_kernel", "GPU kernel", "GPU 커널"},
    {"control.repeats", "Repeats", "반복 횟수"},
    {"control.square", "M = N = K", "M = N = K"},
    {"label.history", "GFLOP/s per run (measured, log scale)", "실행별 GFLOP/s (측정값, 로그 눈금)"},
    {"label.inspect_hint", "Click a lane of the chip or a CPU core to inspect it.", "칩의 레인이나 CPU 코어를 누르면 자세히 볼 수 있습니다."},
    // Labels with values.
    {"label.measured_on", "measured on {}", "{}에서 측정"},
    {"label.simulated", "simulated: {}", "시뮬레이션: {}"},
    {"label.gpu_faster", "GPU is {}\xC3\x97 faster than {} CPU threads at {}",
     "{2}에서 GPU가 CPU 스레드 {1}개보다 {0}배 빠릅니다"},
    {"label.verified", "verified", "검증됨"},
    {"label.failed_verification", "FAILED verification", "검증 실패"},
    {"label.skipped", "skipped", "건너뜀"},
    {"label.no_gpu", "no GPU", "GPU 없음"},
    {"label.no_gpu_here", "no GPU on this machine", "이 컴퓨터에 GPU 없음"},
    {"label.running", "running...", "실행 중..."},
    {"label.cancelled", "cancelled", "취소됨"},
    {"label.cycle", "cycle {}", "{} 사이클"},
    {"label.cells_done", "{} of {} cells done", "셀 {1}개 중 {0}개 완료"},
    {"label.occupancy", "occupancy", "점유율"},
    {"label.sm", "SM {}", "SM {}"},
    {"label.warp", "warp {}", "워프 {}"},
    {"label.lane", "lane {}", "레인 {}"},
    {"label.block", "block {}", "블록 {}"},
    {"label.core", "core {}", "코어 {}"},
    {"label.this_machine", "this machine", "이 컴퓨터"},
    {"label.kernel_naive", "naive", "단순 (naive)"},
    {"label.kernel_tiled", "tiled", "타일 (tiled)"},
    // The CPU panel: the CPU model's speed for cpu-naive on this machine, beside the measured one.
    {"cpu.model_measured", "model {} GFLOP/s, measured {} GFLOP/s (cpu-naive, 1 thread, {})",
     "모델 {0} GFLOP/s, 실측 {1} GFLOP/s (cpu-naive, 스레드 1개, {2})"},
    {"cpu.model_only", "model {} GFLOP/s (cpu-naive, 1 thread, {})", "모델 {0} GFLOP/s (cpu-naive, 스레드 1개, {1})"},
    {"cpu.measure_hint", "measured: run cpu-naive at {}", "실측: {} 크기로 cpu-naive를 실행하세요"},
    {"cpu.model_measured_brief", "model {} vs measured {} GFLOP/s (cpu-naive)", "모델 {0}, 실측 {1} GFLOP/s (cpu-naive)"},
    {"cpu.model_only_brief", "model {} GFLOP/s (cpu-naive, not measured)", "모델 {0} GFLOP/s (cpu-naive, 실측 전)"},
    // The real-run panel (gui/real_run_panel.cpp): its table, controls and status lines.
    {"run.none", "none", "없음"},
    {"run.unavailable", "(unavailable)", "(사용할 수 없음)"},
    {"run.software_renderer", "(software renderer: on this CPU)", "(소프트웨어 렌더러: 이 CPU에서 실행)"},
    {"control.ctrl_click", "Ctrl+click to type a value", "Ctrl+클릭하면 값을 직접 입력합니다"},
    {"run.running", "running", "실행 중"},
    {"run.not_chosen", "not chosen", "선택 안 함"},
    {"run.queued", "queued", "대기열에 있음"},
    {"run.waiting", "waiting", "기다리는 중"},
    {"run.not_applicable", "n/a", "해당 없음"},
    {"run.ok", "ok", "정상"},
    {"run.failed", "FAILED", "실패"},
    {"run.wrong", "WRONG", "틀림"},
    {"run.error_tooltip", "largest relative error {} over {} checked elements", "검사한 원소 {1}개 중 가장 큰 상대 오차 {0}"},
    {"run.one_thread", "{} runs on one thread: one smart core", "{}는 스레드 하나에서 돕니다: 똑똑한 코어 하나"},
    {"run.memory_need", "A, B and C need {}; {} GFLOP per product", "A, B, C에 {0} 필요; 곱셈 한 번에 {1} GFLOP"},
    {"run.timing_cpu", "timing the CPU: the window slows down to leave it the cores",
     "CPU 시간 측정 중: 코어를 비워 주려고 창이 느려집니다"},
    {"run.devices_both", "{} and {}", "{0}, {1}"},
    {"run.elsewhere", "Measured elsewhere, on {} ({}, {}), from {}", "다른 컴퓨터에서 측정: {0} ({1}, {2}), 파일 {3}"},
    {"run.elsewhere_more_one", "1 more run measured elsewhere, listed outside presentation mode",
     "다른 컴퓨터에서 측정한 결과 1개 더 (발표 모드 밖에서 표시)"},
    {"run.elsewhere_more", "{} more runs measured elsewhere, listed outside presentation mode",
     "다른 컴퓨터에서 측정한 결과 {}개 더 (발표 모드 밖에서 표시)"},
    {"run.col_kernel", "kernel", "커널"},
    {"run.col_size", "size", "크기"},
    {"run.col_median_ms", "median ms", "중앙값 ms"},
    {"run.col_copy_ms", "copy ms", "복사 ms"},
    {"run.col_copy", "copy", "복사"},
    {"run.col_check", "check", "검증"},
    {"run.cpu_line", "CPU: {}, {} cores, {}", "CPU: {0}, 코어 {1}개, {2}"},
    {"run.gpu_line", "GPU: {}, cc {}.{}, {} SMs", "GPU: {0}, cc {1}.{2}, SM {3}개"},
    {"run.kernel_skipped", "{} skipped: {}", "{0} 건너뜀: {1}"},
    {"run.kernel_failed", "{} failed: {}", "{0} 실패: {1}"},
    {"run.kernel_wrong", "{} gave a WRONG result: max relative error {} over {} checked elements",
     "{0}의 결과가 틀림: 검사한 원소 {2}개 중 최대 상대 오차 {1}"},
    {"run.software_gpu", "{} ran on {}, a software renderer: it computed on this CPU, so it is not compared as a GPU",
     "{0}은(는) 소프트웨어 렌더러 {1}에서 돌았습니다. 이 CPU가 계산했으므로 GPU로 비교하지 않습니다"},
    {"run.gl_software", "OpenGL: {}: a software renderer, runs on this CPU",
     "OpenGL: {}: 소프트웨어 렌더러, 이 CPU에서 실행"},
    // How long a real run would take, asked before a long one (core/run_estimate.cpp).
    {"estimate.then", " then ", " 다음 "},
    {"estimate.at", "{} at {}", "{0} ({1})"},
    {"estimate.about", "{}: about {}", "{0}: 약 {1}"},
    // Its basis, in the tooltip: one kernel's share, its speed, its runs and where the speed is from.
    {"estimate.basis_one", "{} {}: {} GFLOP/s × 1 run", "{0} {1}: {2} GFLOP/s × 1회"},
    {"estimate.basis_many", "{} {}: {} GFLOP/s × {} runs", "{0} {1}: {2} GFLOP/s × {3}회"},
    {"estimate.basis_measured", ", the speed measured here", ", 이 컴퓨터에서 측정한 속도"},
    {"estimate.basis_builtin", ", a rough built-in speed (not measured here yet)",
     ", 내장된 대략의 속도 (아직 여기서 측정하지 않음)"},
    {"history.empty", "GFLOP/s of each finished run appears here", "끝난 실행마다 GFLOP/s가 여기에 표시됩니다"},
    // The chip view and the timeline.
    {"sim.simulating_launch", "simulating the launch...", "실행을 시뮬레이션하는 중..."},
    {"sim.cannot_draw", "cannot draw the chip: {}", "칩을 그릴 수 없음: {}"},
    {"timeline.cycles_per_s", "cycles/s", "사이클/초"},
    // An ImGui printf format: %lld is the cycle.
    {"timeline.cycle_slider", "cycle %lld", "사이클 %lld"},
    {"cluster.gpu_row", "GPU {}", "GPU {}"},
    {"roofline.where_cpu", "measured on this machine's CPU, {} threads", "이 컴퓨터의 CPU에서 측정, 스레드 {}개"},
    {"roofline.where_software", "measured on this machine: {} is a software renderer, it runs on this CPU",
     "이 컴퓨터에서 측정: {}는 소프트웨어 렌더러라 이 CPU에서 돕니다"},
    {"roofline.where_gpu", "measured on this machine's GPU ({})", "이 컴퓨터의 GPU에서 측정 ({})"},
    {"lesson.gpu_story", "GPU story", "GPU 이야기"},
    {"label.saved", "saved {}", "저장됨: {}"},
    {"label.this_machine_cpu", "This machine: {}", "이 컴퓨터: {}"},
    // What a selected warp waits on (inspector); the number is sim::WaitReason's.
    {"inspector.waiting_on", "waiting on {}: {} of {} cycles", "{0} 대기: {2} 사이클 중 {1}"},
    {"inspector.waiting_barrier", "waiting at __syncthreads for {} cycles", "__syncthreads에서 {} 사이클째 대기"},
    {"wait.0", "nothing", "없음"},
    {"wait.1", "block launch", "블록 시작"},
    {"wait.2", "an FMA result", "FMA 결과"},
    {"wait.3", "a busy pipe", "바쁜 연산 장치"},
    {"wait.4", "global memory", "전역 메모리"},
    {"wait.5", "shared memory", "공유 메모리"},
    {"wait.6", "__syncthreads", "__syncthreads"},
    {"wait.7", "the tensor core", "텐서 코어"},
    // The real-run panel's comparison (core/measured_text.cpp, core/measured_elsewhere.cpp).
    {"measured.one_cpu_thread", "1 CPU thread", "CPU 스레드 1개"},
    {"measured.cpu_threads", "{} CPU threads", "CPU 스레드 {}개"},
    {"measured.gpu_faster", "GPU is {}\xC3\x97 faster than {} at {}", "{2}에서 GPU가 {1}보다 {0}배 빠릅니다"},
    {"measured.cpu_faster_one", "{} is {}\xC3\x97 faster than the GPU at {}", "{2}에서 {0}가 GPU보다 {1}배 빠릅니다"},
    {"measured.cpu_faster_many", "{} are {}\xC3\x97 faster than the GPU at {}", "{2}에서 {0}가 GPU보다 {1}배 빠릅니다"},
    {"measured.elsewhere_name", "{} (measured on {}, {})", "{0} ({1}에서 측정, {2})"},
    {"measured.elsewhere_faster", "{} is {}\xC3\x97 faster than {} here at {}",
     "{3}에서 {0}이(가) 이 컴퓨터의 {2}보다 {1}배 빠릅니다"},
    {"measured.here_faster_one", "{} here is {}\xC3\x97 faster than {} at {}", "{3}에서 이 컴퓨터의 {0}가 {2}보다 {1}배 빠릅니다"},
    {"measured.here_faster_many", "{} here are {}\xC3\x97 faster than {} at {}",
     "{3}에서 이 컴퓨터의 {0}가 {2}보다 {1}배 빠릅니다"},
    // Shown in English on purpose when Hangul cannot be drawn; the Korean text is for logs.
    {"label.font_missing", "Korean font missing: install fonts-nanum",
     "한국어 글꼴이 없습니다: fonts-nanum을 설치하세요"},
};

const Entry* find(std::string_view key) {
    for (const Entry& e : kTable)
        if (e.key == key) return &e;
    return nullptr;
}

}  // namespace

std::string_view language_code(Language lang) { return lang == Language::ko ? "ko" : "en"; }

const char* language_name(Language lang) { return lang == Language::ko ? "한국어" : "English"; }

std::optional<Language> language_from_code(std::string_view code) {
    if (code == "en") return Language::en;
    if (code == "ko") return Language::ko;
    return std::nullopt;
}

const char* tr(std::string_view key, Language lang) {
    if (const Entry* e = find(key)) return (lang == Language::ko && e->ko) ? e->ko : e->en;
    // Unknown keys are interned so the returned pointer outlives the caller's string_view.
    static std::mutex mutex;
    static std::set<std::string, std::less<>> unknown;
    std::lock_guard lock(mutex);
    auto it = unknown.find(key);
    if (it == unknown.end()) it = unknown.emplace(key).first;
    return it->c_str();
}

std::vector<std::string_view> ui_keys() {
    std::vector<std::string_view> keys;
    for (const Entry& e : kTable) keys.push_back(e.key);
    return keys;
}

}  // namespace ws::lesson
