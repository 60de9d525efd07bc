//! nginx from Debian serving a folder over HTTPS, for the tests of followers and media sources
//! that read from a static web server.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::pki::Pki;
use super::server::terminate;

/// nginx in one process (as root, so it reads the test's files), its files in `<dir>/nginx`.
pub struct Nginx(Child);

impl Nginx {
    /// Serves `root` at `location` (`/deliveries/`) on 127.0.0.1:`port` over HTTPS with the
    /// PKI's `server` certificate.
    pub fn start(dir: &Path, port: u16, pki: &Pki, (location, root): (&str, &Path)) -> Nginx {
        let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .expect("nginx is not installed: tests/with-system-tools.sh installs it");
        let work = dir.join("nginx");
        std::fs::create_dir_all(work.join("tmp")).unwrap();
        let conf = format!(
            "daemon off;\nmaster_process off;\npid {w}/nginx.pid;\nerror_log {w}/error.log;\nevents {{}}\nhttp {{\n  access_log off;\n  client_body_temp_path {w}/tmp;\n  proxy_temp_path {w}/tmp;\n  fastcgi_temp_path {w}/tmp;\n  uwsgi_temp_path {w}/tmp;\n  scgi_temp_path {w}/tmp;\n  types {{ application/json json; text/csv csv; image/jpeg jpg jpeg; image/png png; image/webp webp; application/pdf pdf; }}\n  server {{\n    listen 127.0.0.1:{port} ssl;\n    ssl_certificate {cert};\n    ssl_certificate_key {key};\n    location {location} {{ alias {root}/; }}\n  }}\n}}\n",
            w = work.display(),
            cert = pki.file("server.pem").display(),
            key = pki.file("server.key").display(),
            root = root.display(),
        );
        std::fs::write(work.join("nginx.conf"), conf).unwrap();
        let child = Command::new(nginx)
            .arg("-p")
            .arg(&work)
            .arg("-e")
            .arg(work.join("error.log"))
            .arg("-c")
            .arg(work.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Nginx(child)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        terminate(&mut self.0);
    }
}
