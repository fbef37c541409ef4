//! The bucket `publish` and `gc` work on (moved out of publish/mod.rs): wrangler's `r2`
//! commands through the caller's [`Io`], or (unit tests) objects in memory.

use super::{json_string, Io};

/// Where the objects go: the bucket, the catalog, and how they are reached.
pub(super) struct Store<'a> {
    pub(super) bucket: String,
    pub(super) catalog: String,
    pub(super) io: Via<'a>,
}

/// How a [`Store`] reaches the bucket.
pub(super) enum Via<'a> {
    /// wrangler's `r2` commands, on the account's bucket or (`local`) wrangler dev's store.
    Wrangler(Wrangler<'a>),
    /// The objects in memory: the unit tests' bucket.
    #[cfg(test)]
    Memory(std::cell::RefCell<std::collections::BTreeMap<String, Vec<u8>>>),
}

/// wrangler's settings, and the caller's I/O that runs it.
pub(super) struct Wrangler<'a> {
    pub(super) local: bool,
    pub(super) persist_to: Option<String>,
    pub(super) config: Option<String>,
    /// The scratch folder (the files handed to wrangler and the objects it reads back).
    pub(super) tmp: String,
    pub(super) io: &'a Io<'a>,
}

impl Store<'_> {
    /// wrangler's settings; `None` for a bucket in memory.
    fn via_wrangler(&self) -> Option<&Wrangler<'_>> {
        match &self.io {
            Via::Wrangler(w) => Some(w),
            #[cfg(test)]
            Via::Memory(_) => None,
        }
    }

    fn wrangler(&self, args: &[&str]) -> Result<(bool, String), String> {
        let Some(Wrangler {
            local,
            persist_to,
            config,
            io,
            ..
        }) = self.via_wrangler()
        else {
            return Err("no wrangler for a bucket in memory".into());
        };
        let (program, mut all) = match (io.env)("SKILLS_EDGE_WRANGLER") {
            Some(p) if !p.is_empty() => (p, Vec::new()),
            _ => ("npx".to_owned(), vec!["wrangler".to_owned()]),
        };
        all.extend(args.iter().map(|s| (*s).to_owned()));
        if *local {
            all.push("--local".into());
            if let Some(p) = persist_to {
                all.extend(["--persist-to".into(), p.clone()]);
            }
        } else {
            all.push("--remote".into());
        }
        if let Some(c) = config {
            all.extend(["--config".into(), c.clone()]);
        }
        (io.run)(&program, &all).map_err(|e| {
            format!("cannot run {program}: {e}\n  fix: install wrangler (npm i -D wrangler) or set SKILLS_EDGE_WRANGLER to its path")
        })
    }

    /// The caller's I/O and scratch folder (`None` for a bucket in memory, which needs neither).
    fn files(&self) -> Option<(&Io<'_>, &str)> {
        self.via_wrangler().map(|w| (w.io, w.tmp.as_str()))
    }

    /// Writes `bytes` into the scratch folder's `name`; returns its path.
    fn write_scratch(&self, name: &str, bytes: &[u8]) -> Result<String, String> {
        let Some((io, tmp)) = self.files() else {
            return Err("no scratch folder for a bucket in memory".into());
        };
        let file = format!("{tmp}/{name}");
        (io.write_file)(&file, bytes).map_err(|e| format!("cannot write {file}: {e}"))?;
        Ok(file)
    }

    fn path(&self, key: &str) -> String {
        format!("{}/{key}", self.bucket)
    }

    /// Uploads every `(key, bytes)` in one run of wrangler (`r2 bulk put`, which uploads them
    /// concurrently, in no order: only for objects no reader finds before the pointer names
    /// them).
    pub(super) fn put_all(&self, objects: &[(String, &[u8])]) -> Result<(), String> {
        #[cfg(test)]
        if let Via::Memory(m) = &self.io {
            for (key, bytes) in objects {
                m.borrow_mut().insert(key.clone(), bytes.to_vec());
            }
            return Ok(());
        }
        let mut manifest = String::from("[");
        for (i, (key, bytes)) in objects.iter().enumerate() {
            let file = self.write_scratch(&format!("bulk-{i}"), bytes)?;
            if i > 0 {
                manifest.push(',');
            }
            let mut item = String::from("{\"key\":");
            json_string(key, &mut item);
            item.push_str(",\"file\":");
            json_string(&file, &mut item);
            item.push('}');
            manifest.push_str(&item);
        }
        manifest.push(']');
        let list = self.write_scratch("bulk.json", manifest.as_bytes())?;
        let (ok, out) = self.wrangler(&["r2", "bulk", "put", &self.bucket, "--filename", &list])?;
        if ok {
            Ok(())
        } else {
            Err(format!(
                "wrangler could not upload {} objects to {}:\n{}",
                objects.len(),
                self.bucket,
                out.trim()
            ))
        }
    }

    pub(super) fn put(&self, key: &str, bytes: &[u8], content_type: &str) -> Result<(), String> {
        #[cfg(test)]
        if let Via::Memory(m) = &self.io {
            m.borrow_mut().insert(key.to_owned(), bytes.to_vec());
            return Ok(());
        }
        let file = self.write_scratch("object", bytes)?;
        let path = self.path(key);
        let (ok, out) = self.wrangler(&[
            "r2",
            "object",
            "put",
            &path,
            "--file",
            &file,
            "--content-type",
            content_type,
        ])?;
        if ok {
            Ok(())
        } else {
            Err(format!("wrangler could not upload {path}:\n{}", out.trim()))
        }
    }

    /// The object's bytes; `None` when the bucket has no such key.
    pub(super) fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        #[cfg(test)]
        if let Via::Memory(m) = &self.io {
            return Ok(m.borrow().get(key).cloned());
        }
        let Some((io, tmp)) = self.files() else {
            return Err("no scratch folder for a bucket in memory".into());
        };
        let f = format!("{tmp}/download");
        (io.remove_file)(&f);
        let path = self.path(key);
        let (ok, out) = self.wrangler(&["r2", "object", "get", &path, "--file", &f])?;
        if !ok {
            if out.contains("does not exist") || out.contains("not found") {
                return Ok(None);
            }
            return Err(format!("wrangler could not read {path}:\n{}", out.trim()));
        }
        (io.read_file)(&f)
            .map(Some)
            .map_err(|e| format!("cannot read what wrangler wrote for {path}: {e}"))
    }

    pub(super) fn delete(&self, key: &str) -> Result<(), String> {
        #[cfg(test)]
        if let Via::Memory(m) = &self.io {
            m.borrow_mut().remove(key);
            return Ok(());
        }
        let path = self.path(key);
        let (ok, out) = self.wrangler(&["r2", "object", "delete", &path])?;
        if ok {
            Ok(())
        } else {
            Err(format!("wrangler could not delete {path}:\n{}", out.trim()))
        }
    }
}
