# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0
#
# The documentation of the action plugin blkgen.multihost.coordinate
# (plugins/action/coordinate.py): it runs on the controller alone.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: coordinate
short_description: Start blkgen runs on many hosts together and show their live totals
description:
  - Runs C(blkgenctl coordinate) on the controller until every host's run has ended.
  - Each host's C(blkgenctl run), C(curve) or C(replay) with C(--coordinator ADDR:PORT) connects to it
    (a host started before it listens tries again for its C(--lease-secs)); each run starts on all of
    them at one instant once every host has made its job, a curve's points in lockstep.
  - "Its lines are shown as they come, among them each interval's total across the hosts
    (C(live: run K interval I: H/N hosts  ios ...  IOPS ...  MB/s ...  mean ... us))."
  - One host failing, lost or silent, Ctrl-C on the controller, or this task's end (Ansible gone)
    stops every host; the task then fails with the reason.
version_added: 1.2.0
author: blkgen developers
options:
  hosts:
    description: How many hosts take part.
    type: int
    required: true
  ctl:
    description: The controller's blkgenctl.
    type: str
    default: blkgenctl
  listen:
    description: Where to listen, C([ADDR:]PORT).
    type: str
    default: '7010'
  lead_ms:
    description: A run starts this long after the last host is ready for it.
    type: int
    default: 2000
  wait_secs:
    description: How long to wait for every host to connect and make its first job.
    type: int
    default: 120
  silent_secs:
    description: A host silent this long is lost.
    type: int
    default: 30
  log:
    description: A file on the controller that gets every line too.
    type: path
notes:
  - Runs on the controller; the hosts reach it at the address they know it by (the role uses C(SSH_CLIENT)).
'''

EXAMPLES = r'''
- name: Coordinate the runs (each host started with --coordinator)
  blkgen.multihost.coordinate:
    hosts: "{{ ansible_play_hosts | length }}"
    listen: "0.0.0.0:7010"
    log: results/coordinate.log
  run_once: true
'''

RETURN = r'''
rc:
  description: blkgenctl coordinate's exit status (0 every host ended cleanly, 1 not, 130 interrupted).
  returned: always
  type: int
stdout_lines:
  description: Its lines, the live totals among them.
  returned: always
  type: list
  elements: str
msg:
  description: Why every host was stopped.
  returned: failed
  type: str
'''
