/*
 * DexBuilder compiles many ART run-tests in one JVM: for each job it runs
 * javac (javax.tools, --release 8) and then dx 10 in-process, as
 * "javac --release 8" followed by "dx --dex --min-sdk-version=26" would.
 * Starting a JVM costs about a second, so doing this per test with two
 * processes each would take many minutes for the ~470 selected tests.
 *
 * Usage: java -cp <dir>:<dx.jar> DexBuilder <jobs-file>
 *
 * Each line of the jobs file is "name<TAB>sources-list<TAB>out-dir", where
 * sources-list is a file naming one .java file per line. The driver writes
 * out-dir/classes/ and out-dir/classes.dex, or out-dir/build-error.txt with
 * the compiler's diagnostics. It prints "done <name>" per job on stdout, so
 * the Go side can tell jobs that never ran (a crash) from failed builds.
 *
 * Part of droidprof's conformance harness (vm/conformance); not a test.
 */

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.android.dx.command.dexer.DxContext;
import com.android.dx.command.dexer.Main;

public class DexBuilder {
    /** dx keeps global intern tables, so dx runs one at a time. */
    private static final Object DX_LOCK = new Object();

    private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

    /** One file manager per thread: it caches the --release 8 class library. */
    private static final ThreadLocal<StandardJavaFileManager> FILE_MANAGER =
            ThreadLocal.withInitial(() -> JAVAC.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8));

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: DexBuilder <jobs-file>");
            System.exit(2);
        }
        if (JAVAC == null) {
            System.err.println("DexBuilder: no system Java compiler (a JRE without javac?)");
            System.exit(2);
        }
        List<String> jobs = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (String job : jobs) {
            if (job.isEmpty()) {
                continue;
            }
            String[] f = job.split("\t");
            pool.execute(() -> {
                build(f[0], f[1], new File(f[2]));
                synchronized (System.out) {
                    System.out.println("done " + f[0]);
                    System.out.flush();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
    }

    private static void build(String name, String sourcesList, File out) {
        try {
            String err = compile(sourcesList, out);
            if (err == null) {
                err = dex(out);
            }
            if (err != null) {
                Files.write(new File(out, "build-error.txt").toPath(), err.getBytes(StandardCharsets.UTF_8));
            }
        } catch (Throwable e) {
            // A crash of javac or dx on one test must not stop the others.
            StringWriter w = new StringWriter();
            e.printStackTrace(new java.io.PrintWriter(w));
            try {
                Files.write(new File(out, "build-error.txt").toPath(),
                        ("DexBuilder: " + w).getBytes(StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // The Go side reports a job without result files.
            }
        }
    }

    /** compile runs javac; it returns the diagnostics on failure, else null. */
    private static String compile(String sourcesList, File out) throws IOException {
        File classes = new File(out, "classes");
        if (!classes.mkdirs()) {
            return "cannot create " + classes;
        }
        List<File> files = new ArrayList<>();
        for (String s : Files.readAllLines(Paths.get(sourcesList), StandardCharsets.UTF_8)) {
            if (!s.isEmpty()) {
                files.add(new File(s));
            }
        }
        StandardJavaFileManager fm = FILE_MANAGER.get();
        Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromFiles(files);
        // The same options as javadex.Compile, plus -implicit:none as ART's
        // default-build uses.
        List<String> opts = Arrays.asList("--release", "8", "-encoding", "UTF-8", "-nowarn",
                "-Xlint:none", "-implicit:none", "-d", classes.getPath());
        StringWriter log = new StringWriter();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        boolean ok = JAVAC.getTask(log, fm, diags, opts, null, units).call();
        if (ok) {
            return null;
        }
        StringBuilder sb = new StringBuilder("javac failed:\n").append(log);
        diags.getDiagnostics().forEach(d -> sb.append(d).append('\n'));
        return sb.toString();
    }

    /** dex runs dx on out/classes; it returns dx's output on failure, else null. */
    private static String dex(File out) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(log, true, "UTF-8");
        synchronized (DX_LOCK) {
            DxContext ctx = new DxContext(ps, ps);
            Main.Arguments a = new Main.Arguments(ctx);
            a.parseFlags(new String[] {
                "--min-sdk-version=26",
                "--output=" + new File(out, "classes.dex").getPath(),
            });
            // parseFlags leaves the inputs to the command-line parser.
            a.fileNames = new String[] {new File(out, "classes").getPath()};
            int rc;
            try {
                rc = new Main(ctx).runDx(a);
            } finally {
                // The tables only speed up one dx run; cleared, memory stays flat.
                Main.clearInternTables();
            }
            if (rc != 0) {
                return "dx failed (status " + rc + "):\n" + log.toString("UTF-8");
            }
        }
        return null;
    }
}
