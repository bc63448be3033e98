;;; drive.el --- eglot drives hiera-ls, in batch Emacs  -*- lexical-binding: t -*-

;; Does what a new user does after following the README: starts Emacs with the README's
;; init file, visits a data file, runs M-x eglot, reads the Flymake diagnostics, the hover
;; that ElDoc would show, jumps with M-. (xref), then picks another facts profile with
;; .dir-locals.el + M-x eglot-signal-didChangeConfiguration and reads the hover again.
;; The job comes from environment variables; everything seen, or the error that stopped
;; it, is written as JSON to HIERA_OUT.  Waits poll the server's output and give up after
;; HIERA_WAIT_S seconds: a safety net against a hung server, never a speed check.

;; An interactive start activates the installed packages (Debian's elpa-* ones, or ELPA's)
;; before the init file; --batch does not, so do it here, then load the README's config.
(require 'package)
(package-activate-all)
(load (getenv "HIERA_INIT") nil t)

(require 'json)
(require 'cl-lib)
(require 'subr-x)
(require 'eglot)
(require 'flymake)
(require 'xref)

(defvar hiera-drive-out nil "Alist of what was seen, written as JSON at the end.")
(defvar hiera-drive-profiles nil "Names from the server's hiera/activeFactsProfile notifications.")
(defvar hiera-drive-wait-s (string-to-number (or (getenv "HIERA_WAIT_S") "60")))

;; The server announces the active profile with a custom notification; eglot has no
;; handler for it (it ignores unknown notifications), so record it for the test.
(cl-defmethod eglot-handle-notification
  (_server (_method (eql hiera/activeFactsProfile)) &key name &allow-other-keys)
  (push (or name :null) hiera-drive-profiles))

(defun hiera-drive-put (key value)
  (push (cons key value) hiera-drive-out))

(defun hiera-drive-wait (what predicate)
  "Read server output until PREDICATE holds, else signal an error naming WHAT."
  (let ((deadline (+ (float-time) hiera-drive-wait-s)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall predicate) (error "Gave up waiting for %s" what))))

(defun hiera-drive-goto (line character)
  "Point to 0-based LINE and CHARACTER (code points, as Emacs counts)."
  (goto-char (point-min))
  (forward-line line)
  (forward-char character))

(defun hiera-drive-where (pos)
  "POS as (0-based line . code points from the line's start)."
  (save-excursion
    (goto-char pos)
    (list (cons 'line (1- (line-number-at-pos)))
          (cons 'column (- pos (line-beginning-position))))))

(defun hiera-drive-diagnostics ()
  (mapcar (lambda (d)
            (append (list (cons 'type (symbol-name (flymake-diagnostic-type d)))
                          (cons 'text (flymake-diagnostic-text d))
                          (cons 'start (hiera-drive-where (flymake-diagnostic-beg d)))
                          (cons 'end (hiera-drive-where (flymake-diagnostic-end d))))))
          (flymake-diagnostics)))

(defun hiera-drive-codes ()
  "The hiera-ls codes in the buffer's Flymake diagnostics (eglot writes [code])."
  (delq nil (mapcar (lambda (d)
                      (and (string-match "\\[\\([a-z0-9-]+\\)\\]" (flymake-diagnostic-text d))
                           (match-string 1 (flymake-diagnostic-text d))))
                    (flymake-diagnostics))))

(defun hiera-drive-hover (line character)
  "The text ElDoc would show at LINE, CHARACTER, from eglot's hover function."
  (hiera-drive-goto line character)
  (let ((result :pending))
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq result info)))
    (hiera-drive-wait "the hover" (lambda () (not (eq result :pending))))
    (and result (substring-no-properties result))))

(defun hiera-drive-run ()
  (find-file (getenv "HIERA_FILE"))
  (hiera-drive-put 'major_mode (symbol-name major-mode))
  (hiera-drive-put 'emacs_version emacs-version)
  (hiera-drive-put 'eglot_file (locate-library "eglot"))
  (call-interactively #'eglot)  ; M-x eglot
  (hiera-drive-wait "eglot to manage the buffer"
                    (lambda () (and (eglot-managed-p) (eglot-current-server))))
  (let ((server (eglot-current-server))
        (data-buffer (current-buffer)))
    ;; the root eglot gave the server (outside version control: the file's directory)
    (hiera-drive-put 'project_root (expand-file-name (project-root (eglot--project server))))
    ;; Flymake starts its first check when the buffer is displayed after a command;
    ;; batch Emacs runs no commands, so start it as redisplay would.
    (flymake-start)
    (let ((wanted (split-string (getenv "HIERA_WAIT_CODES") "," t)))
      (hiera-drive-wait (format "diagnostics %s" wanted)
                        (lambda () (cl-subsetp wanted (hiera-drive-codes) :test #'equal))))
    (hiera-drive-put 'diagnostics (hiera-drive-diagnostics))
    (hiera-drive-put 'hover (hiera-drive-hover (string-to-number (getenv "HIERA_HOVER_LINE"))
                                               (string-to-number (getenv "HIERA_HOVER_CHARACTER"))))
    ;; M-. on a key: one definition, so xref jumps straight to it.
    (hiera-drive-goto (string-to-number (getenv "HIERA_DEFINITION_LINE"))
                      (string-to-number (getenv "HIERA_DEFINITION_CHARACTER")))
    (call-interactively #'xref-find-definitions)
    (hiera-drive-put 'definition
                     (append (list (cons 'file (buffer-file-name)))
                             (hiera-drive-where (point))))
    ;; Another profile for this repository: .dir-locals.el, then tell the server.
    (switch-to-buffer data-buffer)
    (with-temp-file (expand-file-name ".dir-locals.el" (getenv "HIERA_REPO"))
      (insert (getenv "HIERA_DIR_LOCALS")))
    (let ((wanted (getenv "HIERA_SWITCH_PROFILE")))
      (call-interactively #'eglot-signal-didChangeConfiguration)
      (hiera-drive-wait (format "the server to switch to %s" wanted)
                        (lambda () (equal (car hiera-drive-profiles) wanted))))
    (hiera-drive-put 'switched_hover
                     (hiera-drive-hover (string-to-number (getenv "HIERA_HOVER_LINE"))
                                        (string-to-number (getenv "HIERA_HOVER_CHARACTER"))))
    (hiera-drive-put 'profiles (vconcat (reverse hiera-drive-profiles)))
    (eglot-shutdown server)))

(condition-case err
    (hiera-drive-run)
  (error (hiera-drive-put 'error (error-message-string err))))
(with-temp-file (getenv "HIERA_OUT")
  (insert (json-encode hiera-drive-out)))
(kill-emacs 0)
