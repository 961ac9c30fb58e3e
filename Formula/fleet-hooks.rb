# Homebrew formula of fleet-hooks: this repository is its own tap.
#   brew tap <owner>/fleet-hooks https://github.com/<owner>/fleet-hooks
#   brew install fleet-hooks
# Builds the four programs from the release's source archive with Homebrew's compiler and
# libraries (doc/install.md, "Homebrew"). homepage, url, sha256 and head are written by the
# release workflow from the archive it attaches to the release (cmake/HomebrewFormula.cmake),
# never by hand.
class FleetHooks < Formula
  desc "Hooks and launcher that make fleets of AI coding agents safe"
  homepage "https://github.com/your-org/fleet-hooks"
  url "https://github.com/your-org/fleet-hooks/releases/download/v0.1.0/fleet-hooks-0.1.0-source.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"
  head "https://github.com/your-org/fleet-hooks.git", branch: "main"

  depends_on "cli11" => :build
  depends_on "cmake" => :build
  depends_on "rapidjson" => :build

  def install
    # The programs only: the tests need doctest and the agent CLIs, and run in the repository's
    # CI on macOS (.github/workflows/macos.yml).
    system "cmake", "-S", ".", "-B", "build", "-DFLEET_BUILD_TESTS=OFF",
                    "-DFLEET_BUILD_BENCH=OFF", *std_cmake_args
    system "cmake", "--build", "build", "--target", "resume-guard", "provenance-writer",
                    "launch-wrapper", "fleet-hooks"
    system "cmake", "--install", "build"
  end

  test do
    # "resume-guard 1.2.3 (commit …)"; a --HEAD build carries the version of its CMakeLists.txt.
    number = version.head? ? '\d+(\.\d+)+' : Regexp.escape(version.to_s)
    %w[resume-guard provenance-writer launch-wrapper fleet-hooks].each do |program|
      assert_match(/\A#{program} #{number} /, shell_output("#{bin}/#{program} --version"))
    end

    # worker-1 was launched by l3-owner; a session that is not its owner may not resume it.
    state = testpath/"state"
    system bin/"provenance-writer", "record", "--state-dir", state, "--caller-session-id",
           "l3-owner", "--session-id", "worker-1", "--recipe-name", "implement"
    resume = lambda do |caller|
      "{\"session_id\":\"#{caller}\",\"hook_event_name\":\"PreToolUse\"," \
        "\"tool_name\":\"mcp__kitchen__dispatch_food_truck\"," \
        "\"tool_input\":{\"resume_session_id\":\"worker-1\"}}"
    end
    denied = pipe_output("#{bin}/resume-guard --state-dir #{state}", resume.call("l3-stranger"), 0)
    assert_match "\"permissionDecision\":\"deny\"", denied

    # launch-wrapper announces the agent's pid before the agent can write, then passes its
    # output through (doc/launch-wrapper.md; on macOS, doc/platforms.md).
    launched = shell_output("#{bin}/launch-wrapper --state-dir #{state} --quiet -- /bin/echo hi")
    assert_match(/\AFLEET_PID:\d+\nhi\n\z/, launched)
  end
end
