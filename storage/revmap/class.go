package revmap

import (
	"path"
	"strings"
)

// Class is the file-type class of a path, after MOST's Viewer table
// (file_info2.txt), with SHM and the master journal told apart.
type Class string

// File-type classes.
const (
	ClassDB         Class = "sqlite-db"      // .db, .sqlite, .sqlite3
	ClassJournal    Class = "sqlite-journal" // -journal (rollback), -mjNNNNNNNN (master journal)
	ClassWAL        Class = "sqlite-wal"     // -wal
	ClassSHM        Class = "sqlite-shm"     // -shm
	ClassExec       Class = "exec"           // .so .dex .apk .odex .oat .vdex .jar
	ClassResource   Class = "resource"       // .dat .xml .cache .json .arsc
	ClassMultimedia Class = "multimedia"     // images, audio, video, thumbnails
	ClassTemp       Class = "temp"           // .tmp .temp .bak
	ClassOther      Class = "other"          // any other file
	ClassNone       Class = "none"           // no file: filesystem metadata, journal, free blocks
)

// Classes lists the classes in the order the tables print them.
var Classes = []Class{ClassDB, ClassJournal, ClassWAL, ClassSHM, ClassExec, ClassResource, ClassMultimedia, ClassTemp, ClassOther, ClassNone}

var extClass = map[string]Class{
	"db": ClassDB, "sqlite": ClassDB, "sqlite3": ClassDB,
	"so": ClassExec, "dex": ClassExec, "apk": ClassExec, "odex": ClassExec, "oat": ClassExec, "vdex": ClassExec, "jar": ClassExec, "art": ClassExec,
	"dat": ClassResource, "xml": ClassResource, "cache": ClassResource, "json": ClassResource, "arsc": ClassResource, "thumbdata3": ClassResource,
	"jpg": ClassMultimedia, "jpeg": ClassMultimedia, "png": ClassMultimedia, "gif": ClassMultimedia, "webp": ClassMultimedia,
	"mp3": ClassMultimedia, "mp4": ClassMultimedia, "3gp": ClassMultimedia, "mov": ClassMultimedia, "avi": ClassMultimedia,
	"thumb": ClassMultimedia, "m4a": ClassMultimedia, "ogg": ClassMultimedia,
	"tmp": ClassTemp, "temp": ClassTemp, "bak": ClassTemp,
}

// Classify returns the class of a file path; "" is ClassNone.
func Classify(p string) Class {
	if p == "" {
		return ClassNone
	}
	base := strings.ToLower(path.Base(p))
	// SQLite names its companions after the database: NAME-journal,
	// NAME-wal, NAME-shm, NAME-mjXXXXXXXX (MOST matched them only after
	// ".db", but any database name gets them).
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		switch suf := base[i+1:]; {
		case suf == "journal":
			return ClassJournal
		case suf == "wal":
			return ClassWAL
		case suf == "shm":
			return ClassSHM
		case strings.HasPrefix(suf, "mj") && len(suf) > 2 && isHex(suf[2:]):
			return ClassJournal
		}
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		ext := base[i+1:]
		if c, ok := extClass[ext]; ok {
			return c
		}
		// Numbered databases: Mobibench's test.db0_0 (thread 0, db 0).
		if strings.HasPrefix(ext, "db") && strings.Trim(ext[2:], "0123456789_") == "" {
			return ClassDB
		}
	}
	return ClassOther
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}
