import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.BufferOverflowException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.CRC32;

// java.io.File, the file streams, RandomAccessFile, FileChannel and
// java.nio.ByteBuffer: the same program on the JVM and on our VM. Paths
// under the temporary directory are never printed, only names.
public class Main {
    public static void main(String[] args) throws Exception {
        paths();
        File dir = File.createTempFile("dpfiles", ".d");
        System.out.println("temp file: " + dir.isFile() + " " + dir.length() + " " + dir.getName().startsWith("dpfiles") + " " + dir.getName().endsWith(".d"));
        System.out.println("delete, mkdir: " + dir.delete() + " " + dir.mkdir() + " " + dir.isDirectory());
        try {
            files(dir);
            streams(dir);
            randomAccess(dir);
            channels(dir);
        } finally {
            for (File f : dir.listFiles()) {
                for (File g : f.isDirectory() ? f.listFiles() : new File[0]) {
                    g.delete();
                }
                f.delete();
            }
            System.out.println("cleanup: " + dir.delete() + " " + dir.exists());
        }
        buffers();
        System.out.println("crc32 of a buffer: " + crc());
    }

    static void paths() {
        File f = new File("a//b/c.txt/");
        System.out.println(f.getPath() + " " + f.getName() + " " + f.getParent() + " " + f.isAbsolute());
        File g = new File("/x", "y");
        System.out.println(g + " " + g.getParentFile() + " " + g.getParentFile().getParent() + " " + new File("/").getParent());
        System.out.println(new File("q").getParent() + " " + new File("", "z").getPath() + " " + new File((String) null, "n").getPath());
        System.out.println(new File("a").equals(new File("a")) + " " + new File("a").compareTo(new File("b")) + " " + (new File("a").hashCode() == new File("a").hashCode()));
        System.out.println("relative made absolute: " + new File("rel").getAbsolutePath().endsWith("/rel") + " " + new File("rel").getAbsoluteFile().isAbsolute());
    }

    static void files(File dir) throws IOException {
        File a = new File(dir, "a.txt");
        System.out.println("missing: " + a.exists() + " " + a.isFile() + " " + a.length() + " " + a.lastModified() + " " + a.delete());
        System.out.println("createNewFile: " + a.createNewFile() + " " + a.createNewFile() + " " + a.exists() + " " + a.canRead() + " " + a.canWrite());
        File deep = new File(dir, "x/y");
        System.out.println("mkdirs: " + deep.mkdirs() + " " + deep.isDirectory() + " " + deep.mkdirs() + " " + new File(dir, "x").mkdir());
        File b = new File(dir, "b.txt");
        System.out.println("renameTo: " + a.renameTo(b) + " " + a.exists() + " " + b.exists());
        System.out.println("list: " + Arrays.toString(dir.list()) + " " + dir.listFiles().length + " " + b.list());
        System.out.println("filtered: " + Arrays.toString(dir.list(new java.io.FilenameFilter() {
            public boolean accept(File d, String name) {
                return name.endsWith(".txt");
            }
        })) + " " + dir.listFiles(new java.io.FileFilter() {
            public boolean accept(File f) {
                return f.isDirectory();
            }
        })[0].getName());
        System.out.println("canonical: " + new File(dir, "x/../b.txt").getCanonicalPath().equals(b.getCanonicalPath()));
        System.out.println("rmdir non-empty: " + new File(dir, "x").delete() + ", leaf: " + deep.delete() + ", then: " + new File(dir, "x").delete());
    }

    static void streams(File dir) throws IOException {
        File f = new File(dir, "s.bin");
        FileOutputStream out = new FileOutputStream(f);
        out.write("hello, ".getBytes("UTF-8"));
        out.write('w');
        out.close();
        out = new FileOutputStream(f, true);
        out.write("orld\n".getBytes("UTF-8"), 0, 5);
        out.close();
        System.out.println("length: " + f.length());
        FileInputStream in = new FileInputStream(f);
        System.out.println("available: " + in.available() + ", first: " + (char) in.read() + ", skip: " + in.skip(6) + ", available: " + in.available());
        byte[] buf = new byte[64];
        int n = in.read(buf);
        System.out.println("rest: " + n + " [" + new String(buf, 0, n, "UTF-8").trim() + "] then " + in.read(buf) + " " + in.read());
        in.close();
        try {
            in.read();
            System.out.println("read after close: no exception");
        } catch (IOException e) {
            System.out.println("read after close: " + e.getClass().getName());
        }
        try {
            new FileInputStream(new File(dir, "none"));
        } catch (FileNotFoundException e) {
            System.out.println("open missing: " + e.getClass().getName());
        }
        try {
            new FileInputStream(dir);
        } catch (FileNotFoundException e) {
            System.out.println("open a directory: " + e.getClass().getName());
        }
        FileOutputStream trunc = new FileOutputStream(f);
        trunc.close();
        System.out.println("truncated: " + f.length());
    }

    static void randomAccess(File dir) throws IOException {
        File f = new File(dir, "r.bin");
        RandomAccessFile raf = new RandomAccessFile(f, "rw");
        raf.writeInt(0x01020304);
        raf.writeLong(-2L);
        System.out.println("pointer: " + raf.getFilePointer() + ", length: " + raf.length());
        raf.seek(0);
        System.out.println("readInt: " + Integer.toHexString(raf.readInt()) + ", readLong: " + raf.readLong() + ", eof: " + raf.read());
        raf.setLength(2);
        System.out.println("setLength: " + raf.length() + " pointer " + raf.getFilePointer());
        raf.seek(10);
        raf.write(7);
        System.out.println("sparse write: " + raf.length());
        raf.seek(0);
        byte[] all = new byte[11];
        raf.readFully(all);
        System.out.println(Arrays.toString(all));
        raf.close();
        RandomAccessFile ro = new RandomAccessFile(f, "r");
        try {
            ro.write(1);
            System.out.println("write to r: no exception");
        } catch (IOException e) {
            System.out.println("write to r: " + e.getClass().getName());
        }
        ro.close();
        try {
            new RandomAccessFile(f, "x");
        } catch (IllegalArgumentException e) {
            System.out.println("bad mode: " + e.getClass().getName());
        }
    }

    static void channels(File dir) throws IOException {
        File f = new File(dir, "c.bin");
        RandomAccessFile raf = new RandomAccessFile(f, "rw");
        FileChannel ch = raf.getChannel();
        ByteBuffer src = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5});
        System.out.println("write: " + ch.write(src) + " position " + ch.position() + " size " + ch.size() + " src " + src.remaining());
        ByteBuffer dst = ByteBuffer.allocate(3);
        ch.position(1);
        System.out.println("read: " + ch.read(dst) + " " + Arrays.toString(dst.array()) + " position " + ch.position());
        dst.clear();
        System.out.println("read at 4: " + ch.read(dst, 4) + " " + dst.get(0) + ", at 9: " + ch.read(dst, 9));
        MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8);
        System.out.println("map: " + map.capacity() + " " + map.get(2) + " size now " + ch.size() + " direct " + map.isDirect());
        ch.truncate(8);
        ch.close();
        System.out.println("closed: " + ch.isOpen());
        map.put(0, (byte) 9).position(5);
        map.put((byte) 8).putShort((short) 0x0706);
        FileInputStream in = new FileInputStream(f);
        byte[] back = new byte[8];
        int n = in.read(back);
        in.close();
        System.out.println("through the mapping: " + n + " " + Arrays.toString(back));
        try {
            new FileInputStream(f).getChannel().write(ByteBuffer.allocate(1));
        } catch (RuntimeException e) {
            System.out.println("write to a read channel: " + e.getClass().getName());
        }
    }

    static void buffers() {
        ByteBuffer b = ByteBuffer.allocate(16);
        System.out.println(b + " " + b.order() + " " + b.isDirect() + " " + b.hasArray());
        b.putInt(0x0a0b0c0d).putShort((short) -2).put((byte) 7);
        System.out.println(b.position() + " " + Arrays.toString(Arrays.copyOf(b.array(), 8)));
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(0x0a0b0c0d);
        System.out.println("little: " + Arrays.toString(Arrays.copyOfRange(b.array(), 7, 11)) + " " + Integer.toHexString(b.getInt(7)));
        b.order(ByteOrder.BIG_ENDIAN).flip();
        System.out.println("flip: " + b + " getInt " + Integer.toHexString(b.getInt()) + " getShort " + b.getShort());
        ByteBuffer s = b.slice();
        System.out.println("slice: " + s + " " + s.get(0) + " arrayOffset " + s.arrayOffset());
        b.compact();
        System.out.println("compact: " + b + " " + b.get(0));
        ByteBuffer d = ByteBuffer.allocate(24);
        d.putLong(Long.MIN_VALUE).putDouble(Math.PI).putFloat(1.5f).putChar('Z');
        d.flip();
        System.out.println(d.getLong() + " " + d.getDouble() + " " + d.getFloat() + " " + d.getChar() + " " + d.remaining());
        d.rewind().mark();
        d.getLong();
        d.reset();
        System.out.println("reset: " + d.position() + " dup " + d.duplicate() + " limit " + d.limit(4).position());
        try {
            d.getLong();
        } catch (BufferUnderflowException e) {
            System.out.println("underflow: " + e.getClass().getName());
        }
        try {
            ByteBuffer.allocate(1).put(new byte[2]);
        } catch (BufferOverflowException e) {
            System.out.println("overflow: " + e.getClass().getName());
        }
        try {
            ByteBuffer.allocate(2).asReadOnlyBuffer().put((byte) 1);
        } catch (ReadOnlyBufferException e) {
            System.out.println("read-only: " + e.getClass().getName());
        }
        try {
            ByteBuffer.allocate(2).get(2);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("index: " + e.getClass().getName());
        }
        try {
            ByteBuffer.allocate(2).position(3);
        } catch (IllegalArgumentException e) {
            System.out.println("position: " + e.getClass().getName());
        }
        ByteBuffer w = ByteBuffer.wrap(new byte[] {1, 2, 3, 4}, 1, 2);
        System.out.println("wrap: " + w + " " + w.get() + " equals " + w.equals(ByteBuffer.wrap(new byte[] {3})) + " compare " + ByteBuffer.wrap(new byte[] {1, 2}).compareTo(ByteBuffer.wrap(new byte[] {1, 3})));
        System.out.println("direct: " + ByteBuffer.allocateDirect(4).isDirect() + " " + ByteBuffer.allocateDirect(4).order());
    }

    static long crc() {
        byte[] data = "The quick brown fox".getBytes();
        ByteBuffer buf = ByteBuffer.wrap(data, 0, data.length);
        buf.position(4);
        CRC32 c = new CRC32();
        c.update(buf);
        CRC32 ref = new CRC32();
        ref.update(data, 4, data.length - 4);
        return c.getValue() == ref.getValue() && buf.remaining() == 0 ? c.getValue() : -1;
    }
}
