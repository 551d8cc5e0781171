<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ArticleDelegate</name>
    <message>
        <source>%1 min read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>↻ Waiting to sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Not saved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BuiltInServer</name>
    <message>
        <source>The built-in demo server could not listen on 127.0.0.1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The built-in demo server is not running.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConnectivityNotice</name>
    <message>
        <source>Back online — updated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing saved yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Articles you save with wallabag appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your list is up to date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your list could not be loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 change waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changes waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 change not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changes not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>They go to the server by themselves as soon as it can be reached.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved copy from %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You&apos;re offline — showing your saved copy; changes will sync when you&apos;re back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is taking longer than usual — we keep trying.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the network…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for %1 to answer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your saved articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your list loads as soon as the network is back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your list loads as soon as %1 answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back online. Updating your list…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading your list…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign In…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is having trouble right now; the reader tries again by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to %1 dropped; the reader tries again by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing answers at %1 yet; the reader tries again by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name %1 could not be found. Check the address in Sign In.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Still loading; the reader tries again by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is having trouble right now — your network is fine. We keep trying and update your list as soon as it is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name %1 could not be found — check the address in File ▸ Sign In. We keep trying meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 isn&apos;t answering: the server seems to be down, your network is fine. We keep trying.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Can&apos;t reach %1 — your network or the server may be down. We keep trying.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name %1 could not be found: the address may be misspelled. Check it in Sign In; until then the reader keeps trying.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeveloperWindow</name>
    <message>
        <source>Flaky: 30 % answered 503</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slow: 2 s per answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down for 10 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate-limited: 429, Retry-After 5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop mid-body</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Developer — Faults and Request Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Faults of the built-in server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fault spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: route, method, status, retry-after, latency, drop, count, rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Faults apply to the built-in demo server only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear Faults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active now:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter: any text in any column (503, waiting, PATCH, …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy as Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valid fault spec.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not valid yet: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server is down (connections refused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: the server behaves.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FailedChangesDialog</name>
    <message>
        <source>Changes Not Saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server refused these changes. Undo puts the article back as the server has it; Discard keeps it as it is here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the article back as the server has it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the article as it is here and send nothing more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every change has been saved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilterPane</name>
    <message>
        <source>Filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n article(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Tagged “%1”: %n article(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LocalStore</name>
    <message>
        <source>The reader&apos;s database %1 could not be opened: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reader&apos;s database %1 could not be set up: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>KeepTrying Reader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search titles, sites and saved text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Article</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your saved articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading your list…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save a Link…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the article at a web address to your list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ign In…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the wallabag server and account to read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Changes Not Saved…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The changes the server refused, with what went wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much disk the articles kept for reading offline may take</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Starred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;ll Articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;earch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next Article</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Previous Article</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Bigger Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;maller Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark Reading View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Article</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Star</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit &amp;Tags…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About KeepTrying Reader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About KeepTrying Reader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;KeepTrying Reader&lt;/h3&gt;&lt;p&gt;Your saved articles, even on a flaky network: your list is kept on this computer, changes sync by themselves, and every request keeps trying with backoff, so there is never a button to press again.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Developer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulate &amp;Offline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Act as if the network were gone, for every request of the reader: requests wait, and go out as soon as this is switched off again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sync Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the server for changes now rather than at the next interval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Faults and Request Log…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All Articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tagged “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 article</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 articles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No saved article matches “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No article in this list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This article is not available offline yet. It appears here as soon as the connection is back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the article…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Un&amp;star</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Un&amp;archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unstarred “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starred “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Moved “%1” back to Unread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archived “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags of “%1”, separated by commas:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Web address of the article to save:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not a web address. Addresses start with http:// or https://.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1; it syncs by itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g u&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Unread&lt;/td&gt;&lt;td&gt;&lt;b&gt;j / ↓&lt;/b&gt;&lt;/td&gt;&lt;td&gt;next article&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g s&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Starred&lt;/td&gt;&lt;td&gt;&lt;b&gt;k / ↑&lt;/b&gt;&lt;/td&gt;&lt;td&gt;previous article&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g a&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Archive&lt;/td&gt;&lt;td&gt;&lt;b&gt;f&lt;/b&gt;&lt;/td&gt;&lt;td&gt;star or unstar&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g r&lt;/b&gt;&lt;/td&gt;&lt;td&gt;All articles&lt;/td&gt;&lt;td&gt;&lt;b&gt;a&lt;/b&gt;&lt;/td&gt;&lt;td&gt;archive or unarchive&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g t&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Tags&lt;/td&gt;&lt;td&gt;&lt;b&gt;Delete&lt;/b&gt;&lt;/td&gt;&lt;td&gt;delete the article&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;s&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Search&lt;/td&gt;&lt;td&gt;&lt;b&gt;o&lt;/b&gt;&lt;/td&gt;&lt;td&gt;open the original page&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;?&lt;/b&gt;&lt;/td&gt;&lt;td&gt;this help&lt;/td&gt;&lt;td&gt;&lt;b&gt;Ctrl + / −&lt;/b&gt;&lt;/td&gt;&lt;td&gt;text size&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OutboxChangeQueue</name>
    <message>
        <source>This change could not be kept on this computer (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server did not take this change in time, so it is not saved there.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Articles you opened and their pictures are always kept; previews of other articles make room when this is full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space for offline copies:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In use now:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offline copies cannot be kept (the cache directory is not usable). Saved article text: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of offline copies, %2 of them for articles kept for reading offline. Saved article text in your list: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reader uses your system&apos;s proxy settings: the desktop&apos;s, or the http_proxy, https_proxy and no_proxy environment variables. Addresses of this computer (localhost) are always reached directly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Direct connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Through SOCKS proxy %1 (from your system settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Through proxy %1 (from your system settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Through SOCKS proxy %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Through proxy %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Your password for %1 was kept for the last session only: sign in again to read that library. Showing the demo library meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the demo user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed in as %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built-in demo server</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReadingPane</name>
    <message>
        <source>%1 min read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your last change to this article was not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RequestLog</name>
    <message>
        <source>attempt %1: %2, next in %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for connectivity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connectivity back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1 (error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delays and reasons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Breaker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved copy shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SignInDialog</name>
    <message>
        <source>Sign In to wallabag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KeepTrying Reader reads the articles you saved with wallabag. Create an API client in wallabag (Developer ▸ Create a new client) for its client ID and secret.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the demo library (a built-in server on this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Server address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client &amp;ID:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client s&amp;ecret:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;User name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secret and password are kept in your system keychain, never in a plain file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved for this session only: no keychain is available on this computer, so the secret and password are kept until the reader quits, never on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signing In…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WallabagClient</name>
    <message>
        <source>%1 pointed the list to another server (%2); the reader only talks to the server you signed in to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server did not accept the user name “%1” or its password. Check them, then sign in again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server did not accept the reader&apos;s client ID or secret. Check the API client you created in wallabag, then sign in with its ID and secret.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to %1 failed: %2. Check the server address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 no longer accepts this sign-in, even after signing in again. Check the user name and password, then sign in again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not let this account change or read this through the API. Ask the server&apos;s administrator to allow it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This article is no longer on the server: it may have been deleted elsewhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This address doesn&apos;t look like a wallabag server — check it in Sign In. It is the address you open wallabag at in a browser.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a problem of its own that trying again does not fix. Tell the server&apos;s administrator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 did not accept this change, so it is not saved there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 refused the reader&apos;s request. Check the address in Sign In, or tell the server&apos;s administrator.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
