# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0
#
# blkgen.multihost.coordinate: blkgenctl coordinate on the controller,
# its lines shown as they come (the hosts' live totals), until every
# host's run has ended. Documented in plugins/modules/coordinate.py.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import subprocess

from ansible.errors import AnsibleActionFail
from ansible.module_utils.common.text.converters import to_native, to_text
from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

display = Display()


class ActionModule(ActionBase):
    """Run the coordinator; a pipe to its standard input is its lease."""

    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(('ctl', 'hosts', 'listen', 'lead_ms', 'wait_secs', 'silent_secs', 'log'))

    def _int(self, name, default, low, high):
        value = self._task.args.get(name, default)
        try:
            value = int(value)
        except (TypeError, ValueError):
            raise AnsibleActionFail('%s: expected a whole number, not %r' % (name, value))
        if not low <= value <= high:
            raise AnsibleActionFail('%s: %d is not from %d to %d' % (name, value, low, high))
        return value

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        del tmp
        args = self._task.args
        hosts = self._int('hosts', None, 1, 256)
        argv = [to_native(args.get('ctl', 'blkgenctl')), 'coordinate', '--while-stdin',
                '--hosts', str(hosts),
                '--listen', to_native(args.get('listen', '7010')),
                '--lead-ms', str(self._int('lead_ms', 2000, 100, 3600000)),
                '--wait-secs', str(self._int('wait_secs', 120, 1, 86400)),
                '--silent-secs', str(self._int('silent_secs', 30, 1, 3600))]
        log = args.get('log')
        lines = []
        result['cmd'] = argv
        if self._play_context.check_mode:
            result.update(changed=False, skipped=True, msg='check mode: nothing coordinated')
            return result
        try:
            # The pipe stays open while this task runs: its end (Ansible
            # gone) stops every host, as an interrupt does.
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT)
        except OSError as e:
            raise AnsibleActionFail('%s: %s (blkgen_ctl, the controller\'s blkgenctl)' % (argv[0], to_native(e)))
        logf = open(log, 'w') if log else None
        try:
            for raw in iter(proc.stdout.readline, b''):
                line = to_text(raw, errors='surrogate_or_strict').rstrip('\n')
                lines.append(line)
                if logf:
                    logf.write(line + '\n')
                    logf.flush()
                display.display(line)
            rc = proc.wait()
        finally:
            if logf:
                logf.close()
            proc.stdin.close()
            if proc.poll() is None:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
        result.update(rc=rc, stdout_lines=lines, changed=True, failed=rc != 0)
        if rc:
            stopped = [x for x in lines if x.startswith('coordinate: stopped: ')]
            result['msg'] = stopped[-1][len('coordinate: stopped: '):] if stopped else 'blkgenctl coordinate exited %d' % rc
        return result
