# label_dates.py - writes pages.tsv and dates.tsv (next to this file) from the
# hand-made labels below: one regex per displayed date format, each checked by
# hand on its pages, and anchored rows for the dates in post text. Values are
# computed with Python's zoneinfo, independently of lib/forum/fdate.c.
#   python3 tests/data/forums/label_dates.py
import os, re, sys
from html.parser import HTMLParser
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
D = os.path.join(HERE, '../../../../shared/data/forums/trafilatura/')
PAGES = [
 ('anglerboard.de-rute.html','de','Europe/Berlin','2022-01-28T10:58:34Z','XenForo csrf token 1643367514: the server time of the page'),
 ('archive.org.dzs-clan.de.html','de','Europe/Berlin','2011-01-06T02:32:42Z','Wayback Machine snapshot 20110106023242'),
 ('d43f330cbaf74e92b9aec85e937cb904.html','de','Europe/Berlin','2019-10-19T11:00:00Z','newest post 19.10.19 12:48; the sidebar lists today up to 12:48 (MacTechNews)'),
 ('foren.myoos.de.html','de','Etc/GMT-2','2020-10-14T10:18:00Z','phpBB footer: Aktuelle Zeit: 14.10.2020, 12:18 and UTC+02:00'),
 ('katzen-forum.net-Pepe.html','de','Europe/Berlin','2021-11-12T14:35:05Z','XenForo csrf token 1636727705'),
 ('pocketpc.ch.auslieferung.html','de','Europe/Zurich','2020-10-12T08:00:00Z','sidebar: Heute, 09:10 / Gestern, 19:48 above rows dated 10.10.2020 (vBulletin, Swiss)'),
 ('reddit.com.init.html','en','UTC','2020-01-29T12:55:20Z','pageloadServerTime 1580302520196 in the page state'),
 ('villagersandheroes.com.forums.patchnotes.html','en,de','America/Los_Angeles','2021-09-22T11:38:31Z','XenForo csrf token 1632308311; <time datetime> offsets -0700'),
 ('wolfsrebellen-netz.forumieren.com.regeln.html','de','Europe/Berlin','2020-02-11T18:22:00Z','footer: Aktuelles Datum und Uhrzeit: 11/02/20, 07:22 pm'),
]

class P(HTMLParser):
    def __init__(s):
        super().__init__(convert_charrefs=True); s.skip=0; s.out=[]
    def handle_starttag(s,t,a):
        if t in('script','style'): s.skip+=1
    def handle_endtag(s,t):
        if t in('script','style') and s.skip: s.skip-=1
    def handle_data(s,d):
        if not s.skip: s.out.append(d)

def nodes(f):
    raw = open(D+f,'rb').read()
    try: txt = raw.decode('utf-8')
    except UnicodeDecodeError: txt = raw.decode('cp1252', errors='replace')
    p = P(); p.feed(txt); return p.out

MON = {'januar':1,'februar':2,'märz':3,'april':4,'mai':5,'juni':6,'juli':7,'august':8,'september':9,'oktober':10,'november':11,'dezember':12,
       'jan':1,'feb':2,'mar':3,'apr':4,'may':5,'jun':6,'jul':7,'aug':8,'sep':9,'oct':10,'nov':11,'dec':12}

def utc(zone, y, mo, d, h=0, mi=0, s=0):
    t = datetime(y, mo, d, h, mi, s, tzinfo=ZoneInfo(zone))
    return t.astimezone(ZoneInfo('UTC')).strftime('%Y-%m-%dT%H:%M:%SZ')

def y2(y): return 2000 + int(y) if len(y) == 2 else int(y)

rows = []
def add(f, text, value, gran, how): rows.append((f, text, value, gran, how))

# Displayed dates, by format (each format checked by hand on its page)
RX = [
 # 29.12.2010, 13:36 Uhr / 29.12.2010 - 22:40 / 30.05.2014 23:07:56 / 03.03.2011, 14:17 / 14.10.2020, 12:18
 (r'(?<![\d.])(\d\d)\.(\d\d)\.(\d{4})(?:(,? | - |, )(\d\d):(\d\d)(?::(\d\d))?( Uhr)?)?(?![\d.])', 'dmy4'),
 # 28.09.19 / 29.10.19 18:30 Uhr / 29.12.10
 (r'(?<![\d.])(\d\d)\.(\d\d)\.(\d\d)(?: (\d\d):(\d\d)( Uhr)?)?(?![\d.])', 'dmy2'),
 # 05.01 14:54 (no year, with a time)
 (r'(?<![\d.])(\d\d)\.(\d\d) (\d\d):(\d\d)(?![\d.])', 'dm'),
 # 24/03/16, 02:31 pm
 (r'(\d\d)/(\d\d)/(\d\d), (\d\d):(\d\d) (am|pm)', 'dmy_ampm'),
 # 21. Januar 2022
 (r'\b(\d{1,2})\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) (\d{4})', 'dmonthy'),
 # Sep 18, 2020 / Jan 25, 2008
 (r'\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{1,2}), (\d{4})', 'mdy_name'),
 # 2012/05/13 (in a URL)
 (r'/(\d{4})/(\d\d)/(\d\d)/', 'ymd_url'),
 # 6 years ago
 (r'\b(\d+) years ago', 'years_ago'),
]

def label_displayed(f, zone, now, text):
    found = []
    for rx, kind in RX:
        for m in re.finditer(rx, text):
            if any(a < m.end() and m.start() < b for a, b, _ in found): continue
            g = m.groups()
            if kind == 'dmy4':
                d, mo, y = int(g[0]), int(g[1]), int(g[2])
                if g[4]:
                    s = int(g[6]) if g[6] else 0
                    found.append((m.start(), m.end(), (utc(zone, y, mo, d, int(g[4]), int(g[5]), s), 'second' if g[6] else 'minute', 'D.M.Y with time as the forum shows it')))
                else:
                    found.append((m.start(), m.end(), (utc(zone, y, mo, d), 'day', 'D.M.Y')))
            elif kind == 'dmy2':
                d, mo, y = int(g[0]), int(g[1]), y2(g[2])
                if g[3]:
                    found.append((m.start(), m.end(), (utc(zone, y, mo, d, int(g[3]), int(g[4])), 'minute', 'D.M.YY with time')))
                else:
                    found.append((m.start(), m.end(), (utc(zone, y, mo, d), 'day', 'D.M.YY (German site; 31.12.-style dates elsewhere on it)')))
            elif kind == 'dm':
                d, mo = int(g[0]), int(g[1])
                nowd = datetime.fromisoformat(now.replace('Z','+00:00'))
                y = nowd.year if (mo, d) <= (nowd.month, nowd.day) else nowd.year - 1
                found.append((m.start(), m.end(), (utc(zone, y, mo, d, int(g[2]), int(g[3])), 'minute', 'D.M. with time, newest first in a sidebar; year: the latest before the snapshot')))
            elif kind == 'dmy_ampm':
                d, mo, y = int(g[0]), int(g[1]), y2(g[2])
                h = int(g[3]) % 12 + (12 if g[5] == 'pm' else 0)
                found.append((m.start(), m.end(), (utc(zone, y, mo, d, h, int(g[4])), 'minute', 'DD/MM/YY (24/03/16 on the same page rules out M/D) with am/pm')))
            elif kind == 'dmonthy':
                found.append((m.start(), m.end(), (utc(zone, int(g[2]), MON[g[1].lower()], int(g[0])), 'day', 'German long date')))
            elif kind == 'mdy_name':
                found.append((m.start(), m.end(), (utc(zone, int(g[2]), MON[g[0].lower()], int(g[1])), 'day', 'English medium date')))
            elif kind == 'ymd_url':
                found.append((m.start()+1, m.end()-1, (utc(zone, int(g[0]), int(g[1]), int(g[2])), 'day', 'Y/M/D in a blog URL quoted in a post')))
            elif kind == 'years_ago':
                nowd = datetime.fromisoformat(now.replace('Z','+00:00'))
                v = nowd.replace(year=nowd.year - int(g[0])).strftime('%Y-%m-%dT%H:%M:%SZ')
                found.append((m.start(), m.end(), (v, 'year', 'reddit relative age against the page load time (the comments were created 2013-03-31, JSON "created"; reddit rounds down to whole years)')))
    return sorted(found)

# Dates in prose and other strays: (file, anchor substring of the text node,
# the date text, local date, granularity, how). Several may share an anchor.
PROSE = {
 'archive.org.dzs-clan.de.html': [
   ('vom 7 – 9 Januar', '9 Januar', (2011,1,9), 'day', 'end of the range "vom 7 – 9 Januar", an event announced on 29.12.2010 (so January 2011); "7" alone names no month and is not labelled'),
   ('vom 7-9 Januar', '9 Januar', (2011,1,9), 'day', 'the same range written "7-9 Januar"'),
 ],
 'd43f330cbaf74e92b9aec85e937cb904.html': [
   ('heute Morgen war alles', 'heute Morgen', (2019,10,1), 'day', 'prose: "heute Morgen" (this morning) in the post of 01.10.19 07:41'),
   ('gestern abend mein Iphone', 'gestern', (2019,10,17), 'day', 'prose: "gestern abend" in the post of 18.10.19 19:13 (and its quote)'),
 ],
 'katzen-forum.net-Pepe.html': [
   ('Heute Abend kämme', 'Heute', (2018,9,27), 'day', 'prose: post #1 of 27.09.2018'),
   ('Ich wollte gestern mal', 'gestern', (2018,9,26), 'day', 'prose: post #3 of 27.09.2018'),
   ('Gestern hatten wir', 'Gestern', (2018,9,26), 'day', 'prose: post #3 of 27.09.2018'),
   ('ich mache Euch morgen', 'morgen', (2018,9,28), 'day', 'prose: "morgen" (tomorrow) in post #4 of 27.09.2018'),
   ('Gestern Abend habe ich', 'Gestern', (2018,9,27), 'day', 'prose: post #5 of 28.09.2018'),
   ('Gestern Abend habe ich', 'Heute morgen', (2018,9,28), 'day', 'prose: "Heute morgen" (this morning) in post #5 of 28.09.2018'),
   ('gestern sofort aufgetragen', 'gestern', (2018,9,28), 'day', 'prose: post #11 of 29.09.2018'),
   ('heute Nacht von 23 Uhr', 'heute', (2018,9,29), 'day', 'prose: post #11 of 29.09.2018'),
   ('Heute war er dann', 'Heute', (2018,9,29), 'day', 'prose: post #11 of 29.09.2018'),
   ('Gestern bei durchkämmen', 'Gestern', (2018,10,1), 'day', 'prose: post #14 of 02.10.2018'),
   ('vor 2 Tagen waren', 'vor 2 Tagen', (2019,8,12), 'day', 'prose: post #15 of 14.08.2019'),
   ('solle ihm morgen', 'morgen', (2019,8,15), 'day', 'prose: "morgen" (tomorrow) in post #15 of 14.08.2019'),
   ('heute morgen noch mal', 'heute morgen', (2019,8,15), 'day', 'prose: "heute morgen" (this morning) in post #17 of 15.08.2019'),
 ],
 'pocketpc.ch.auslieferung.html': [
   ('bis gestern kam nix', 'gestern', (2011,3,2), 'day', 'prose: post #664 of 03.03.2011'),
   ('18.10.2010,', '18.10.2010', (2010,10,18), 'day', 'D.M.Y; the time 23:08 is in the next element'),
   ('23.03.2010,', '23.03.2010', (2010,3,23), 'day', 'D.M.Y; the time is in the next element'),
   ('20.09.2004,', '20.09.2004', (2004,9,20), 'day', 'D.M.Y; the time is in the next element'),
   ('iPhone Keynote am 13.10.', '13.10.', (2020,10,13), 'day', 'Apple\'s keynote of 13 October 2020, announced the day before the page (no year shown)'),
   ('Heute,', 'Heute', (2020,10,12), 'day', 'sidebar "Heute, 09:10" against the page time; the time is in the next element'),
   ('Gestern,', 'Gestern', (2020,10,11), 'day', 'sidebar "Gestern, 19:48"; the time is in the next element'),
   (', 10.10.2020,', '10.10.2020', (2020,10,10), 'day', 'sidebar D.M.Y; the time is in the next element'),
   (', 09.10.2020,', '09.10.2020', (2020,10,9), 'day', 'sidebar D.M.Y'),
   (', 06.10.2020,', '06.10.2020', (2020,10,6), 'day', 'sidebar D.M.Y'),
   (', 05.10.2020,', '05.10.2020', (2020,10,5), 'day', 'sidebar D.M.Y'),
   (', 04.10.2020,', '04.10.2020', (2020,10,4), 'day', 'sidebar D.M.Y'),
 ],
 'villagersandheroes.com.forums.patchnotes.html': [
   ('frühestens am 12. Oktober', '12. Oktober', (2020,10,12), 'day', 'prose: next update "frühestens am 12. Oktober" in the post of Sep 21, 2020'),
 ],
 'wolfsrebellen-netz.forumieren.com.regeln.html': [
   ('26.10.13', '26.10.13', (2013,10,26), 'day', 'member since, D.M.YY, in the profile box next to the post'),
 ],
}

seen_anchor = {}
with open(os.path.join(HERE, 'pages.tsv'),'w') as pf:
    pf.write('# Pages of ../shared/data/forums/trafilatura with the settings their dates are read with.\n')
    pf.write('# file\tlocales\tzone\tnow (the fetch time)\thow the fetch time and zone were determined\n')
    for f, loc, zone, now, how in PAGES:
        pf.write('\t'.join([f, loc, zone, now, how]) + '\n')

for f, loc, zone, now, how in PAGES:
    prose = PROSE.get(f, [])
    used = set()
    for node in nodes(f):
        node1 = ' '.join(node.split())
        if not node1: continue
        items = []
        pr_hit = [i for i, p in enumerate(prose) if p[0] in node1]
        for i in pr_hit:
            a, text, (y, mo, d), gran, how2 = prose[i]
            start = node1.find(a)
            pos = node1.find(text, start)
            if pos < 0: pos = node1.find(text)
            items.append((pos, (text, utc(zone, y, mo, d), gran, how2)))
        if not pr_hit:
            for a, b, (v, g, h) in label_displayed(f, zone, now, node1):
                items.append((a, (node1[a:b], v, g, h)))
        for _, (text, v, g, h) in sorted(items):
            add(f, text, v, g, h)

with open(os.path.join(HERE, 'dates.tsv'),'w') as out:
    out.write('# Hand-labelled dates of the real forum pages in ../shared/data/forums/trafilatura,\n')
    out.write('# one row per occurrence in document order (text nodes; script and style skipped).\n')
    out.write('# A date here names a calendar day or an instant: absolute dates with or without\n')
    out.write('# year or time, day words (heute, gestern, morgen) and "N units ago". Not dates:\n')
    out.write('# times alone, years or months alone ("Mai 2015"), durations ("seit 2 Tagen"),\n')
    out.write('# vague phrases ("vor ein paar Wochen", "letztens"), "heute" meaning nowadays,\n')
    out.write('# a UI label ("heute" klicke), version numbers. Values are UTC, the local\n')
    out.write('# midnight for day granularity, in the page zone of pages.tsv; relative words in\n')
    out.write('# post text ("prose:") against the date of the post they are in.\n')
    out.write('# Written by label_dates.py (the labels and their reasons are there).\n')
    out.write('# file\tdate as it appears\tUTC\tgranularity\thow it was determined\n')
    for r in rows:
        out.write('\t'.join(r) + '\n')
print(len(rows), 'rows')
from collections import Counter
print(Counter(r[0] for r in rows))
