<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ArticleDelegate</name>
    <message>
        <source>%1 min read</source>
        <translation>%1 Min. Lesezeit</translation>
    </message>
    <message>
        <source>↻ Waiting to sync</source>
        <translation>↻ Wartet auf Abgleich</translation>
    </message>
    <message>
        <source>⚠ Not saved</source>
        <translation>⚠ Nicht gespeichert</translation>
    </message>
    <message>
        <source>↻ Waiting</source>
        <translation>↻ Wartet</translation>
    </message>
</context>
<context>
    <name>BuiltInServer</name>
    <message>
        <source>The built-in demo server could not listen on 127.0.0.1.</source>
        <translation>Der eingebaute Demo-Server konnte auf 127.0.0.1 nicht starten.</translation>
    </message>
    <message>
        <source>The built-in demo server is not running.</source>
        <translation>Der eingebaute Demo-Server läuft nicht.</translation>
    </message>
</context>
<context>
    <name>CertificateDialog</name>
    <message>
        <source>Check the Server&apos;s Certificate</source>
        <translation>Zertifikat des Servers prüfen</translation>
    </message>
    <message>
        <source>The Server&apos;s Certificate Has Changed</source>
        <translation>Das Zertifikat des Servers hat sich geändert</translation>
    </message>
    <message>
        <source>%1 uses a certificate that this computer does not trust.</source>
        <translation>%1 verwendet ein Zertifikat, dem dieser Computer nicht vertraut.</translation>
    </message>
    <message>
        <source>%1 presented a different certificate from the one you trusted for it.</source>
        <translation>%1 hat ein anderes Zertifikat vorgelegt als das, dem Sie für diesen Server vertraut haben.</translation>
    </message>
    <message>
        <source>If this is your own server, you can trust this certificate for this account. First compare its fingerprint below with the one your server shows: if they differ, someone may be in between, and you should not trust it.</source>
        <translation>Wenn dies Ihr eigener Server ist, können Sie diesem Zertifikat für dieses Konto vertrauen. Vergleichen Sie zuerst den Fingerabdruck unten mit dem, den Ihr Server anzeigt: Weichen sie voneinander ab, hat sich womöglich jemand dazwischengeschaltet, und Sie sollten ihm nicht vertrauen.</translation>
    </message>
    <message>
        <source>The reader did not connect and sent nothing. Someone may be pretending to be your server. If you replaced the server&apos;s certificate yourself, sign in again (File ▸ Sign In…) to trust the new one.</source>
        <translation>Der Reader hat keine Verbindung aufgebaut und nichts gesendet. Möglicherweise gibt sich jemand als Ihr Server aus. Wenn Sie das Zertifikat des Servers selbst ersetzt haben, melden Sie sich erneut an (Datei ▸ Anmelden …), um dem neuen zu vertrauen.</translation>
    </message>
    <message>
        <source>Someone may be pretending to be your server. Replace the trusted certificate only if you replaced it on the server yourself and the fingerprint below is the one your server shows.</source>
        <translation>Möglicherweise gibt sich jemand als Ihr Server aus. Ersetzen Sie das vertrauenswürdige Zertifikat nur, wenn Sie es selbst auf dem Server ersetzt haben und der Fingerabdruck unten der ist, den Ihr Server anzeigt.</translation>
    </message>
    <message>
        <source>Made for:</source>
        <translation>Ausgestellt für:</translation>
    </message>
    <message>
        <source>Issued by:</source>
        <translation>Ausgestellt von:</translation>
    </message>
    <message>
        <source>Valid until:</source>
        <translation>Gültig bis:</translation>
    </message>
    <message>
        <source>SHA-256 fingerprint:</source>
        <translation>SHA-256-Fingerabdruck:</translation>
    </message>
    <message>
        <source>What is wrong:</source>
        <translation>Was nicht stimmt:</translation>
    </message>
    <message>
        <source>Trust This Certificate</source>
        <translation>Diesem Zertifikat vertrauen</translation>
    </message>
    <message>
        <source>Replace the Trusted Certificate</source>
        <translation>Vertrauenswürdiges Zertifikat ersetzen</translation>
    </message>
</context>
<context>
    <name>CertificateTrust</name>
    <message>
        <source>It was made by the server itself (self-signed): no authority this computer trusts vouches for it.</source>
        <translation>Der Server hat es selbst erstellt (selbstsigniert): Keine Zertifizierungsstelle, der dieser Computer vertraut, bürgt dafür.</translation>
    </message>
    <message>
        <source>It was issued by an authority this computer does not know, such as a private one of your own.</source>
        <translation>Es wurde von einer Zertifizierungsstelle ausgestellt, die dieser Computer nicht kennt, etwa einer eigenen, privaten.</translation>
    </message>
    <message>
        <source>It was not made for the name %1.</source>
        <translation>Es wurde nicht für den Namen %1 ausgestellt.</translation>
    </message>
    <message>
        <source>It expired on %1.</source>
        <translation>Es ist am %1 abgelaufen.</translation>
    </message>
    <message>
        <source>It is valid only from %1.</source>
        <translation>Es ist erst ab %1 gültig.</translation>
    </message>
    <message>
        <source>Its issuer has withdrawn it.</source>
        <translation>Sein Aussteller hat es zurückgezogen.</translation>
    </message>
    <message>
        <source>It cannot be checked.</source>
        <translation>Es lässt sich nicht prüfen.</translation>
    </message>
</context>
<context>
    <name>ConnectivityNotice</name>
    <message>
        <source>Back online — updated.</source>
        <translation>Wieder online – aktualisiert.</translation>
    </message>
    <message>
        <source>Nothing saved yet</source>
        <translation>Noch nichts gespeichert</translation>
    </message>
    <message>
        <source>Articles you save with wallabag appear here.</source>
        <translation>Artikel, die Sie mit wallabag speichern, erscheinen hier.</translation>
    </message>
    <message>
        <source>Your list is up to date</source>
        <translation>Ihre Liste ist aktuell</translation>
    </message>
    <message>
        <source>Not loaded</source>
        <translation>Nicht geladen</translation>
    </message>
    <message>
        <source>Your list could not be loaded</source>
        <translation>Ihre Liste konnte nicht geladen werden</translation>
    </message>
    <message>
        <source>1 change waiting</source>
        <translation>1 Änderung wartet</translation>
    </message>
    <message>
        <source>1 change not saved</source>
        <translation>1 Änderung nicht gespeichert</translation>
    </message>
    <message>
        <source>They go to the server by themselves as soon as it can be reached.</source>
        <translation>Sie gehen von selbst an den Server, sobald er erreichbar ist.</translation>
    </message>
    <message>
        <source>Saved copy from %1</source>
        <translation>Gespeicherte Kopie von %1</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Aktualisiert %1</translation>
    </message>
    <message>
        <source>You&apos;re offline — showing your saved copy; changes will sync when you&apos;re back.</source>
        <translation>Sie sind offline – Sie sehen Ihre gespeicherte Kopie; Änderungen werden abgeglichen, sobald Sie wieder online sind.</translation>
    </message>
    <message>
        <source>This is taking longer than usual — we keep trying.</source>
        <translation>Das dauert länger als üblich – wir versuchen es weiter.</translation>
    </message>
    <message>
        <source>Waiting for the network…</source>
        <translation>Warte auf das Netzwerk …</translation>
    </message>
    <message>
        <source>Waiting for %1 to answer…</source>
        <translation>Warte auf Antwort von %1 …</translation>
    </message>
    <message>
        <source>Waiting…</source>
        <translation>Warte …</translation>
    </message>
    <message>
        <source>Your saved articles</source>
        <translation>Ihre gespeicherten Artikel</translation>
    </message>
    <message>
        <source>Your list loads as soon as the network is back.</source>
        <translation>Ihre Liste wird geladen, sobald das Netzwerk wieder da ist.</translation>
    </message>
    <message>
        <source>Your list loads as soon as %1 answers.</source>
        <translation>Ihre Liste wird geladen, sobald %1 antwortet.</translation>
    </message>
    <message>
        <source>Back online. Updating your list…</source>
        <translation>Wieder online. Ihre Liste wird aktualisiert …</translation>
    </message>
    <message>
        <source>Loading your list…</source>
        <translation>Ihre Liste wird geladen …</translation>
    </message>
    <message>
        <source>Sign In…</source>
        <translation>Anmelden …</translation>
    </message>
    <message>
        <source>%1 is having trouble right now; the reader tries again by itself.</source>
        <translation>%1 hat gerade Probleme; der Reader versucht es von selbst erneut.</translation>
    </message>
    <message>
        <source>The connection to %1 dropped; the reader tries again by itself.</source>
        <translation>Die Verbindung zu %1 ist abgebrochen; der Reader versucht es von selbst erneut.</translation>
    </message>
    <message>
        <source>Nothing answers at %1 yet; the reader tries again by itself.</source>
        <translation>Unter %1 antwortet noch nichts; der Reader versucht es von selbst erneut.</translation>
    </message>
    <message>
        <source>The name %1 could not be found. Check the address in Sign In.</source>
        <translation>Der Name %1 wurde nicht gefunden. Prüfen Sie die Adresse unter „Anmelden“.</translation>
    </message>
    <message>
        <source>Still loading; the reader tries again by itself.</source>
        <translation>Lädt noch; der Reader versucht es von selbst erneut.</translation>
    </message>
    <message>
        <source>%1 is having trouble right now — your network is fine. We keep trying and update your list as soon as it is ready.</source>
        <translation>%1 hat gerade Probleme – Ihr Netzwerk ist in Ordnung. Wir versuchen es weiter und aktualisieren Ihre Liste, sobald es klappt.</translation>
    </message>
    <message>
        <source>The name %1 could not be found — check the address in File ▸ Sign In. We keep trying meanwhile.</source>
        <translation>Der Name %1 wurde nicht gefunden – prüfen Sie die Adresse unter Datei ▸ Anmelden. Bis dahin versuchen wir es weiter.</translation>
    </message>
    <message>
        <source>%1 isn&apos;t answering: the server seems to be down, your network is fine. We keep trying.</source>
        <translation>%1 antwortet nicht: Der Server scheint ausgefallen zu sein, Ihr Netzwerk ist in Ordnung. Wir versuchen es weiter.</translation>
    </message>
    <message>
        <source>Can&apos;t reach %1 — your network or the server may be down. We keep trying.</source>
        <translation>%1 ist nicht erreichbar – Ihr Netzwerk oder der Server ist vielleicht ausgefallen. Wir versuchen es weiter.</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nicht gefunden</translation>
    </message>
    <message>
        <source>Server not found</source>
        <translation>Server nicht gefunden</translation>
    </message>
    <message>
        <source>The name %1 could not be found: the address may be misspelled. Check it in Sign In; until then the reader keeps trying.</source>
        <translation>Der Name %1 wurde nicht gefunden: Vielleicht ist die Adresse falsch geschrieben. Prüfen Sie sie unter „Anmelden“; bis dahin versucht es der Reader weiter.</translation>
    </message>
    <message numerus="yes">
        <source>%n articles</source>
        <translation>
            <numerusform>%n Artikel</numerusform>
            <numerusform>%n Artikel</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n changes waiting</source>
        <translation>
            <numerusform>%n Änderung wartet</numerusform>
            <numerusform>%n Änderungen warten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n changes not saved</source>
        <translation>
            <numerusform>%n Änderung nicht gespeichert</numerusform>
            <numerusform>%n Änderungen nicht gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>You&apos;re offline; the reader tries again by itself when the network is back.</source>
        <translation>Sie sind offline; der Reader versucht es von selbst erneut, sobald das Netzwerk wieder da ist.</translation>
    </message>
    <message>
        <source>The proxy this computer uses isn&apos;t answering; the reader tries again by itself. Check the proxy settings.</source>
        <translation>Der Proxy, den dieser Computer verwendet, antwortet nicht; der Reader versucht es von selbst erneut. Prüfen Sie die Proxy-Einstellungen.</translation>
    </message>
    <message>
        <source>The proxy this computer uses isn&apos;t answering, so %1 can&apos;t be reached. Check the proxy settings (File ▸ Preferences shows which one is in use). We keep trying.</source>
        <translation>Der Proxy, den dieser Computer verwendet, antwortet nicht, daher ist %1 nicht erreichbar. Prüfen Sie die Proxy-Einstellungen (Datei ▸ Einstellungen zeigt, welcher verwendet wird). Wir versuchen es weiter.</translation>
    </message>
    <message>
        <source>%1 answers again — your list is up to date.</source>
        <translation>%1 antwortet wieder – Ihre Liste ist aktuell.</translation>
    </message>
    <message>
        <source>%1 answers again. Updating your list…</source>
        <translation>%1 antwortet wieder. Ihre Liste wird aktualisiert …</translation>
    </message>
    <message>
        <source>Waiting for the proxy to answer…</source>
        <translation>Warten auf eine Antwort des Proxys …</translation>
    </message>
    <message>
        <source>Your list loads as soon as the proxy answers.</source>
        <translation>Ihre Liste wird geladen, sobald der Proxy antwortet.</translation>
    </message>
</context>
<context>
    <name>DeveloperWindow</name>
    <message>
        <source>Flaky: 30 % answered 503</source>
        <translation>Wackelig: 30 % mit 503 beantwortet</translation>
    </message>
    <message>
        <source>Slow: 2 s per answer</source>
        <translation>Langsam: 2 s pro Antwort</translation>
    </message>
    <message>
        <source>Down for 10 s</source>
        <translation>10 s lang ausgefallen</translation>
    </message>
    <message>
        <source>Rate-limited: 429, Retry-After 5</source>
        <translation>Gedrosselt: 429, Retry-After 5</translation>
    </message>
    <message>
        <source>Drop mid-body</source>
        <translation>Abbruch mitten im Body</translation>
    </message>
    <message>
        <source>Developer — Faults and Request Log</source>
        <translation>Entwickler – Fehler und Anfrageprotokoll</translation>
    </message>
    <message>
        <source>Faults of the built-in server</source>
        <translation>Fehler des eingebauten Servers</translation>
    </message>
    <message>
        <source>Fault spec</source>
        <translation>Fehlerbeschreibung</translation>
    </message>
    <message>
        <source>Add Fault</source>
        <translation>Fehler hinzufügen</translation>
    </message>
    <message>
        <source>Keys: route, method, status, retry-after, latency, drop, count, rate.</source>
        <translation>Schlüssel: route, method, status, retry-after, latency, drop, count, rate.</translation>
    </message>
    <message>
        <source>Clear Faults</source>
        <translation>Fehler entfernen</translation>
    </message>
    <message>
        <source>Active now:</source>
        <translation>Jetzt aktiv:</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>Filter: any text in any column (503, waiting, PATCH, …)</source>
        <translation>Filter: beliebiger Text in beliebiger Spalte (503, waiting, PATCH, …)</translation>
    </message>
    <message>
        <source>Copy as Text</source>
        <translation>Als Text kopieren</translation>
    </message>
    <message>
        <source>Valid fault spec.</source>
        <translation>Gültige Fehlerbeschreibung.</translation>
    </message>
    <message>
        <source>Not valid yet: %1</source>
        <translation>Noch nicht gültig: %1</translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation>Nicht hinzugefügt: %1</translation>
    </message>
    <message>
        <source>empty spec</source>
        <translation>leere Beschreibung</translation>
    </message>
    <message>
        <source>Added: %1</source>
        <translation>Hinzugefügt: %1</translation>
    </message>
    <message>
        <source>The server is down (connections refused)</source>
        <translation>Der Server ist ausgefallen (Verbindungen abgelehnt)</translation>
    </message>
    <message>
        <source>None: the server behaves.</source>
        <translation>Keine: Der Server verhält sich normal.</translation>
    </message>
    <message>
        <source>Simulate offline</source>
        <translation>Offline simulieren</translation>
    </message>
    <message>
        <source>Simulate offline (%1)</source>
        <translation>Offline simulieren (%1)</translation>
    </message>
    <message>
        <source>Now: offline (simulated); requests wait until this is switched off.</source>
        <translation>Jetzt: offline (simuliert); Anfragen warten, bis dies ausgeschaltet wird.</translation>
    </message>
    <message>
        <source>Now: using the network.</source>
        <translation>Jetzt: Netzwerk wird verwendet.</translation>
    </message>
    <message>
        <source>These work only with the built-in demo server: choose the demo library in File ▸ Sign In to use them.</source>
        <translation>Diese wirken nur beim eingebauten Demo-Server: Wählen Sie unter Datei ▸ Anmelden die Demo-Bibliothek, um sie zu nutzen.</translation>
    </message>
</context>
<context>
    <name>FailedChangesDialog</name>
    <message>
        <source>Changes Not Saved</source>
        <translation>Nicht gespeicherte Änderungen</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>1 change is waiting to be sent; it goes to the server by itself as soon as the server can be reached.</source>
        <translation>1 Änderung wartet darauf, gesendet zu werden; sie geht von selbst an den Server, sobald er erreichbar ist.</translation>
    </message>
    <message numerus="yes">
        <source>%n changes are waiting to be sent; they go to the server by themselves as soon as the server can be reached.</source>
        <translation>
            <numerusform>%n Änderung wartet darauf, gesendet zu werden; sie geht von selbst an den Server, sobald er erreichbar ist.</numerusform>
            <numerusform>%n Änderungen warten darauf, gesendet zu werden; sie gehen von selbst an den Server, sobald er erreichbar ist.</numerusform>
        </translation>
    </message>
    <message>
        <source>The server has refused none of your changes.</source>
        <translation>Der Server hat keine Ihrer Änderungen abgelehnt.</translation>
    </message>
    <message>
        <source>&amp;Undo: go back to what the server has</source>
        <translation>&amp;Rückgängig: zurück zum Stand auf dem Server</translation>
    </message>
    <message>
        <source>&amp;Keep mine here: stop trying to save it</source>
        <translation>Meine &amp;behalten: nicht mehr versuchen, sie zu speichern</translation>
    </message>
    <message>
        <source>The article goes back to how it is on the server</source>
        <translation>Der Artikel kehrt zu seinem Stand auf dem Server zurück</translation>
    </message>
    <message>
        <source>The article stays as you have it here; the server keeps its own version</source>
        <translation>Der Artikel bleibt hier, wie Sie ihn haben; der Server behält seine eigene Fassung</translation>
    </message>
    <message>
        <source>Star</source>
        <translation>Markieren</translation>
    </message>
    <message>
        <source>Remove star</source>
        <translation>Markierung entfernen</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>Back to unread</source>
        <translation>Zurück zu Ungelesen</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Schlagwörter</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Save a link</source>
        <translation>Link speichern</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <comment>article title — the change not saved</comment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Nothing is waiting to be saved.</source>
        <translation>Nichts wartet darauf, gespeichert zu werden.</translation>
    </message>
    <message>
        <source>The server refused these changes. Undo puts the article back as the server has it. Keep mine leaves it as you have it here and stops trying to save the change.</source>
        <translation>Der Server hat diese Änderungen abgelehnt. „Rückgängig“ stellt den Artikel so her, wie der Server ihn hat. „Meine behalten“ lässt ihn hier so, wie Sie ihn haben, und versucht nicht mehr, die Änderung zu speichern.</translation>
    </message>
</context>
<context>
    <name>FilterPane</name>
    <message>
        <source>Filters</source>
        <translation>Filter</translation>
    </message>
    <message>
        <source>Unread</source>
        <translation>Ungelesen</translation>
    </message>
    <message>
        <source>Starred</source>
        <translation>Markiert</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archiv</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Schlagwörter</translation>
    </message>
    <message>
        <source>%1: 1 article</source>
        <translation>%1: 1 Artikel</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n articles</source>
        <translation>
            <numerusform>%1: %n Artikel</numerusform>
            <numerusform>%1: %n Artikel</numerusform>
        </translation>
    </message>
    <message>
        <source>Tagged “%1”: 1 article</source>
        <translation>Schlagwort „%1“: 1 Artikel</translation>
    </message>
    <message numerus="yes">
        <source>Tagged “%1”: %n articles</source>
        <translation>
            <numerusform>Schlagwort „%1“: %n Artikel</numerusform>
            <numerusform>Schlagwort „%1“: %n Artikel</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KeepTrying::RetryBanner</name>
    <message>
        <source>Still trying</source>
        <translation>Wird weiter versucht</translation>
    </message>
    <message>
        <source>This is taking longer than usual. Please check your network connection while we keep trying.</source>
        <translation>Das dauert länger als üblich. Bitte prüfen Sie Ihre Netzwerkverbindung, während wir es weiter versuchen.</translation>
    </message>
    <message>
        <source>You&apos;re offline. We&apos;ll keep trying and load this as soon as you&apos;re back.</source>
        <translation>Sie sind offline. Wir versuchen es weiter und laden dies, sobald Sie wieder online sind.</translation>
    </message>
    <message>
        <source>The server is busy right now. Your network is fine; we&apos;ll keep trying and load this as soon as it can answer.</source>
        <translation>Der Server ist gerade ausgelastet. Ihr Netzwerk ist in Ordnung; wir versuchen es weiter und laden dies, sobald er antworten kann.</translation>
    </message>
    <message>
        <source>The server isn&apos;t answering right now. Your network is fine; we&apos;ll keep trying and load this as soon as the server is back.</source>
        <translation>Der Server antwortet gerade nicht. Ihr Netzwerk ist in Ordnung; wir versuchen es weiter und laden dies, sobald der Server wieder da ist.</translation>
    </message>
    <message>
        <source>The server can&apos;t be found right now. Please check your network connection while we keep trying.</source>
        <translation>Der Server ist gerade nicht zu finden. Bitte prüfen Sie Ihre Netzwerkverbindung, während wir es weiter versuchen.</translation>
    </message>
    <message>
        <source>The server can&apos;t be reached right now. Please check your network connection while we keep trying.</source>
        <translation>Der Server ist gerade nicht erreichbar. Bitte prüfen Sie Ihre Netzwerkverbindung, während wir es weiter versuchen.</translation>
    </message>
    <message>
        <source>The proxy this computer uses isn&apos;t answering. Please check the proxy settings while we keep trying.</source>
        <translation>Der Proxy, den dieser Computer verwendet, antwortet nicht. Bitte prüfen Sie die Proxy-Einstellungen, während wir es weiter versuchen.</translation>
    </message>
</context>
<context>
    <name>LocalStore</name>
    <message>
        <source>The reader&apos;s database %1 could not be opened: %2</source>
        <translation>Die Datenbank des Readers %1 konnte nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>The reader&apos;s database %1 could not be set up: %2</source>
        <translation>Die Datenbank des Readers %1 konnte nicht eingerichtet werden: %2</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>KeepTrying Reader</source>
        <translation>KeepTrying Reader</translation>
    </message>
    <message>
        <source>Unread</source>
        <translation>Ungelesen</translation>
    </message>
    <message>
        <source>Search titles, sites and saved text</source>
        <translation>Titel, Websites und gespeicherten Text durchsuchen</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Articles</source>
        <translation>Artikel</translation>
    </message>
    <message>
        <source>Article</source>
        <translation>Artikel</translation>
    </message>
    <message>
        <source>Your saved articles</source>
        <translation>Ihre gespeicherten Artikel</translation>
    </message>
    <message>
        <source>Loading your list…</source>
        <translation>Ihre Liste wird geladen …</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Save a Link…</source>
        <translation>Link &amp;speichern …</translation>
    </message>
    <message>
        <source>Save the article at a web address to your list</source>
        <translation>Den Artikel unter einer Webadresse in Ihrer Liste speichern</translation>
    </message>
    <message>
        <source>S&amp;ign In…</source>
        <translation>&amp;Anmelden …</translation>
    </message>
    <message>
        <source>Choose the wallabag server and account to read</source>
        <translation>Den wallabag-Server und das Konto zum Lesen wählen</translation>
    </message>
    <message>
        <source>&amp;Changes Not Saved…</source>
        <translation>Nicht gespeicherte Ä&amp;nderungen …</translation>
    </message>
    <message>
        <source>The changes the server refused, with what went wrong</source>
        <translation>Die vom Server abgelehnten Änderungen, mit dem Grund</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>How much disk the articles kept for reading offline may take</source>
        <translation>Wie viel Speicherplatz die für das Offline-Lesen aufbewahrten Artikel belegen dürfen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>A&amp;nsicht</translation>
    </message>
    <message>
        <source>&amp;Unread</source>
        <translation>&amp;Ungelesen</translation>
    </message>
    <message>
        <source>&amp;Starred</source>
        <translation>&amp;Markiert</translation>
    </message>
    <message>
        <source>&amp;Archive</source>
        <translation>&amp;Archivieren</translation>
    </message>
    <message>
        <source>A&amp;ll Articles</source>
        <translation>A&amp;lle Artikel</translation>
    </message>
    <message>
        <source>&amp;Tags</source>
        <translation>&amp;Schlagwörter</translation>
    </message>
    <message>
        <source>S&amp;earch</source>
        <translation>Su&amp;chen</translation>
    </message>
    <message>
        <source>&amp;Next Article</source>
        <translation>&amp;Nächster Artikel</translation>
    </message>
    <message>
        <source>&amp;Previous Article</source>
        <translation>&amp;Vorheriger Artikel</translation>
    </message>
    <message>
        <source>&amp;Bigger Text</source>
        <translation>&amp;Größere Schrift</translation>
    </message>
    <message>
        <source>S&amp;maller Text</source>
        <translation>&amp;Kleinere Schrift</translation>
    </message>
    <message>
        <source>&amp;Dark Reading View</source>
        <translation>&amp;Dunkle Leseansicht</translation>
    </message>
    <message>
        <source>&amp;Article</source>
        <translation>A&amp;rtikel</translation>
    </message>
    <message>
        <source>&amp;Star</source>
        <translation>&amp;Markieren</translation>
    </message>
    <message>
        <source>Edit &amp;Tags…</source>
        <translation>&amp;Schlagwörter bearbeiten …</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>Open &amp;Original</source>
        <translation>&amp;Original öffnen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About KeepTrying Reader</source>
        <translation>Ü&amp;ber KeepTrying Reader</translation>
    </message>
    <message>
        <source>About KeepTrying Reader</source>
        <translation>Über KeepTrying Reader</translation>
    </message>
    <message>
        <source>&lt;h3&gt;KeepTrying Reader&lt;/h3&gt;&lt;p&gt;Your saved articles, even on a flaky network: your list is kept on this computer, changes sync by themselves, and every request keeps trying with backoff, so there is never a button to press again.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;KeepTrying Reader&lt;/h3&gt;&lt;p&gt;Ihre gespeicherten Artikel, auch bei wackeligem Netz: Ihre Liste liegt auf diesem Computer, Änderungen werden von selbst abgeglichen, und jede Anfrage versucht es mit wachsenden Pausen weiter, sodass Sie nie einen Knopf erneut drücken müssen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Developer</source>
        <translation>&amp;Entwickler</translation>
    </message>
    <message>
        <source>Simulate &amp;Offline</source>
        <translation>&amp;Offline simulieren</translation>
    </message>
    <message>
        <source>Act as if the network were gone, for every request of the reader: requests wait, and go out as soon as this is switched off again</source>
        <translation>So tun, als wäre das Netzwerk weg, für jede Anfrage des Readers: Anfragen warten und gehen hinaus, sobald dies wieder ausgeschaltet ist</translation>
    </message>
    <message>
        <source>&amp;Sync Now</source>
        <translation>Jetzt &amp;abgleichen</translation>
    </message>
    <message>
        <source>Ask the server for changes now rather than at the next interval</source>
        <translation>Den Server jetzt nach Änderungen fragen statt beim nächsten Intervall</translation>
    </message>
    <message>
        <source>&amp;Faults and Request Log…</source>
        <translation>&amp;Fehler und Anfrageprotokoll …</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen …</translation>
    </message>
    <message>
        <source>Starred</source>
        <translation>Markiert</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archiv</translation>
    </message>
    <message>
        <source>All Articles</source>
        <translation>Alle Artikel</translation>
    </message>
    <message>
        <source>Tagged “%1”</source>
        <translation>Schlagwort „%1“</translation>
    </message>
    <message>
        <source>1 article</source>
        <translation>1 Artikel</translation>
    </message>
    <message>
        <source>Nothing found</source>
        <translation>Nichts gefunden</translation>
    </message>
    <message>
        <source>No saved article matches “%1”.</source>
        <translation>Kein gespeicherter Artikel passt zu „%1“.</translation>
    </message>
    <message>
        <source>Nothing here</source>
        <translation>Hier ist nichts</translation>
    </message>
    <message>
        <source>No article in this list.</source>
        <translation>Kein Artikel in dieser Liste.</translation>
    </message>
    <message>
        <source>This article is not available offline yet. It appears here as soon as the connection is back.</source>
        <translation>Dieser Artikel ist noch nicht offline verfügbar. Er erscheint hier, sobald die Verbindung wieder da ist.</translation>
    </message>
    <message>
        <source>Loading the article…</source>
        <translation>Der Artikel wird geladen …</translation>
    </message>
    <message>
        <source>Un&amp;star</source>
        <translation>Markierung &amp;entfernen</translation>
    </message>
    <message>
        <source>Un&amp;archive</source>
        <translation>Aus dem &amp;Archiv holen</translation>
    </message>
    <message>
        <source>Unstarred “%1”</source>
        <translation>Markierung von „%1“ entfernt</translation>
    </message>
    <message>
        <source>Starred “%1”</source>
        <translation>„%1“ markiert</translation>
    </message>
    <message>
        <source>Moved “%1” back to Unread</source>
        <translation>„%1“ zurück zu Ungelesen verschoben</translation>
    </message>
    <message>
        <source>Archived “%1”</source>
        <translation>„%1“ archiviert</translation>
    </message>
    <message>
        <source>Save a Link</source>
        <translation>Link speichern</translation>
    </message>
    <message>
        <source>Web address of the article to save:</source>
        <translation>Webadresse des zu speichernden Artikels:</translation>
    </message>
    <message>
        <source>“%1” is not a web address. Addresses start with http:// or https://.</source>
        <translation>„%1“ ist keine Webadresse. Adressen beginnen mit http:// oder https://.</translation>
    </message>
    <message>
        <source>Saved %1; it syncs by itself</source>
        <translation>%1 gespeichert; wird von selbst abgeglichen</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;Undo Delete</source>
        <translation>Löschen &amp;rückgängig machen</translation>
    </message>
    <message numerus="yes">
        <source>%n articles</source>
        <translation>
            <numerusform>%n Artikel</numerusform>
            <numerusform>%n Artikel</numerusform>
        </translation>
    </message>
    <message>
        <source>Article deleted —</source>
        <translation>Artikel gelöscht –</translation>
    </message>
    <message>
        <source>“%1” was already deleted on the server. That can&apos;t be undone.</source>
        <translation>„%1“ wurde auf dem Server bereits gelöscht. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>“%1” is back.</source>
        <translation>„%1“ ist wieder da.</translation>
    </message>
    <message>
        <source>No web browser could be opened for %1. The address is copied: paste it into a browser.</source>
        <translation>Für %1 ließ sich kein Webbrowser öffnen. Die Adresse ist kopiert: Fügen Sie sie in einen Browser ein.</translation>
    </message>
    <message>
        <source>&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g u&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Unread&lt;/td&gt;&lt;td&gt;&lt;b&gt;j / ↓&lt;/b&gt;&lt;/td&gt;&lt;td&gt;next article&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g s&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Starred&lt;/td&gt;&lt;td&gt;&lt;b&gt;k / ↑&lt;/b&gt;&lt;/td&gt;&lt;td&gt;previous article&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g a&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Archive&lt;/td&gt;&lt;td&gt;&lt;b&gt;f&lt;/b&gt;&lt;/td&gt;&lt;td&gt;star or unstar&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g r&lt;/b&gt;&lt;/td&gt;&lt;td&gt;All articles&lt;/td&gt;&lt;td&gt;&lt;b&gt;a&lt;/b&gt;&lt;/td&gt;&lt;td&gt;archive or unarchive&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g t&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Tags&lt;/td&gt;&lt;td&gt;&lt;b&gt;Delete&lt;/b&gt;&lt;/td&gt;&lt;td&gt;delete the article&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;s&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Search&lt;/td&gt;&lt;td&gt;&lt;b&gt;o&lt;/b&gt;&lt;/td&gt;&lt;td&gt;open the original page&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;?&lt;/b&gt;&lt;/td&gt;&lt;td&gt;this help&lt;/td&gt;&lt;td&gt;&lt;b&gt;Ctrl + / −&lt;/b&gt;&lt;/td&gt;&lt;td&gt;text size&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;td&gt;&lt;b&gt;Ctrl+Z&lt;/b&gt;&lt;/td&gt;&lt;td&gt;undo the delete&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g u&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Ungelesen&lt;/td&gt;&lt;td&gt;&lt;b&gt;j / ↓&lt;/b&gt;&lt;/td&gt;&lt;td&gt;nächster Artikel&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g s&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Markiert&lt;/td&gt;&lt;td&gt;&lt;b&gt;k / ↑&lt;/b&gt;&lt;/td&gt;&lt;td&gt;vorheriger Artikel&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g a&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Archiv&lt;/td&gt;&lt;td&gt;&lt;b&gt;f&lt;/b&gt;&lt;/td&gt;&lt;td&gt;markieren oder Markierung aufheben&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g r&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Alle Artikel&lt;/td&gt;&lt;td&gt;&lt;b&gt;a&lt;/b&gt;&lt;/td&gt;&lt;td&gt;archivieren oder zurückholen&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;g t&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Schlagwörter&lt;/td&gt;&lt;td&gt;&lt;b&gt;Entf&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Artikel löschen&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;s&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Suche&lt;/td&gt;&lt;td&gt;&lt;b&gt;o&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Originalseite öffnen&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;b&gt;?&lt;/b&gt;&lt;/td&gt;&lt;td&gt;diese Hilfe&lt;/td&gt;&lt;td&gt;&lt;b&gt;Strg + / −&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Schriftgröße&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;&lt;/td&gt;&lt;td&gt;&lt;/td&gt;&lt;td&gt;&lt;b&gt;Strg+Z&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Löschen rückgängig machen&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>Sign &amp;Out…</source>
        <translation>Ab&amp;melden …</translation>
    </message>
    <message>
        <source>Forget your password and remove your library from this computer</source>
        <translation>Ihr Passwort vergessen und Ihre Bibliothek von diesem Computer entfernen</translation>
    </message>
    <message>
        <source>You are signed out</source>
        <translation>Sie sind abgemeldet</translation>
    </message>
    <message>
        <source>Your library was removed from this computer. Choose File ▸ Sign In… to read it again.</source>
        <translation>Ihre Bibliothek wurde von diesem Computer entfernt. Wählen Sie Datei ▸ Anmelden …, um sie wieder zu lesen.</translation>
    </message>
    <message>
        <source>Not signed in</source>
        <translation>Nicht angemeldet</translation>
    </message>
    <message>
        <source>Signed out.</source>
        <translation>Abgemeldet.</translation>
    </message>
</context>
<context>
    <name>OutboxChangeQueue</name>
    <message>
        <source>This change could not be kept on this computer (%1).</source>
        <translation>Diese Änderung konnte auf diesem Computer nicht aufbewahrt werden (%1).</translation>
    </message>
    <message>
        <source>The server did not take this change in time, so it is not saved there.</source>
        <translation>Der Server hat diese Änderung nicht rechtzeitig angenommen; dort ist sie daher nicht gespeichert.</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Space for offline copies:</source>
        <translation>Platz für Offline-Kopien:</translation>
    </message>
    <message>
        <source>In use now:</source>
        <translation>Derzeit belegt:</translation>
    </message>
    <message>
        <source>Offline copies cannot be kept (the cache directory is not usable). Saved article text: %1.</source>
        <translation>Offline-Kopien können nicht aufbewahrt werden (das Cache-Verzeichnis ist nicht nutzbar). Gespeicherter Artikeltext: %1.</translation>
    </message>
    <message>
        <source>%1 of offline copies, %2 of them for articles kept for reading offline. Saved article text in your list: %3.</source>
        <translation>%1 Offline-Kopien, davon %2 für Artikel zum Offline-Lesen. Gespeicherter Artikeltext in Ihrer Liste: %3.</translation>
    </message>
    <message>
        <source>The reader uses your system&apos;s proxy settings: the desktop&apos;s, or the http_proxy, https_proxy and no_proxy environment variables. Addresses of this computer (localhost) are always reached directly.</source>
        <translation>Der Reader verwendet die Proxy-Einstellungen Ihres Systems: die der Arbeitsumgebung oder die Umgebungsvariablen http_proxy, https_proxy und no_proxy. Adressen dieses Computers (localhost) werden immer direkt erreicht.</translation>
    </message>
    <message>
        <source>Connection:</source>
        <translation>Verbindung:</translation>
    </message>
    <message>
        <source>Direct connection</source>
        <translation>Direkte Verbindung</translation>
    </message>
    <message>
        <source>Through SOCKS proxy %1 (from your system settings)</source>
        <translation>Über SOCKS-Proxy %1 (aus Ihren Systemeinstellungen)</translation>
    </message>
    <message>
        <source>Through proxy %1 (from your system settings)</source>
        <translation>Über Proxy %1 (aus Ihren Systemeinstellungen)</translation>
    </message>
    <message>
        <source>Through SOCKS proxy %1</source>
        <translation>Über SOCKS-Proxy %1</translation>
    </message>
    <message>
        <source>Through proxy %1</source>
        <translation>Über Proxy %1</translation>
    </message>
    <message>
        <source>Articles you opened and their pictures are always kept; pictures of other saved articles and previews make room when this is full.</source>
        <translation>Geöffnete Artikel und ihre Bilder werden immer behalten; Bilder anderer gespeicherter Artikel und Vorschaubilder machen Platz, wenn der Speicher voll ist.</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Your password for %1 was kept for the last session only: sign in again to read that library. Showing the demo library meanwhile.</source>
        <translation>Ihr Passwort für %1 war nur für die letzte Sitzung gespeichert: Melden Sie sich erneut an, um diese Bibliothek zu lesen. Bis dahin sehen Sie die Demo-Bibliothek.</translation>
    </message>
    <message>
        <source>the demo user</source>
        <translation>der Demo-Benutzer</translation>
    </message>
    <message>
        <source>Signed in as %1.</source>
        <translation>Angemeldet als %1.</translation>
    </message>
    <message>
        <source>Built-in demo server</source>
        <translation>Eingebauter Demo-Server</translation>
    </message>
    <message>
        <source>no name</source>
        <translation>kein Name</translation>
    </message>
    <message>
        <source>itself</source>
        <translation>sich selbst</translation>
    </message>
</context>
<context>
    <name>ReadingPane</name>
    <message>
        <source>%1 min read</source>
        <translation>%1 Min. Lesezeit</translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation>gespeichert %1</translation>
    </message>
    <message>
        <source>Your last change to this article was not saved: %1</source>
        <translation>Ihre letzte Änderung an diesem Artikel wurde nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Original: </source>
        <translation>Original: </translation>
    </message>
    <message>
        <source>Star or unstar this article (F)</source>
        <translation>Diesen Artikel markieren oder die Markierung aufheben (F)</translation>
    </message>
    <message>
        <source>Archive this article, or move it back (A)</source>
        <translation>Diesen Artikel archivieren oder zurückholen (A)</translation>
    </message>
    <message>
        <source>★ Starred</source>
        <translation>★ Markiert</translation>
    </message>
    <message>
        <source>☆ Star</source>
        <translation>☆ Markieren</translation>
    </message>
    <message>
        <source>Starred</source>
        <translation>Markiert</translation>
    </message>
    <message>
        <source>Star</source>
        <translation>Markieren</translation>
    </message>
    <message>
        <source>✓ Archived</source>
        <translation>✓ Archiviert</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Archiviert</translation>
    </message>
</context>
<context>
    <name>RequestLog</name>
    <message>
        <source>waiting for connectivity</source>
        <translation>wartet auf Verbindung</translation>
    </message>
    <message>
        <source>connectivity back</source>
        <translation>Verbindung wieder da</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1 (error)</source>
        <translation>HTTP %1 (Fehler)</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Delays and reasons</source>
        <translation>Pausen und Gründe</translation>
    </message>
    <message>
        <source>Breaker</source>
        <translation>Breaker</translation>
    </message>
    <message>
        <source>Saved copy shown</source>
        <translation>Gespeicherte Kopie gezeigt</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>attempt %1: %2, %3 for %4 ms</source>
        <translation>Versuch %1: %2, %3 für %4 ms</translation>
    </message>
    <message>
        <source>attempt %1: %2, %3</source>
        <translation>Versuch %1: %2, %3</translation>
    </message>
    <message>
        <source>stopped: %1, attempts: %2</source>
        <translation>beendet: %1, Versuche: %2</translation>
    </message>
    <message>
        <source>, waiting for %1</source>
        <translation>, wartete auf %1</translation>
    </message>
    <message>
        <source>offline (simulated)</source>
        <translation>offline (simuliert)</translation>
    </message>
    <message>
        <source>until %1</source>
        <translation>bis %1</translation>
    </message>
    <message>
        <source>%1 ahead</source>
        <translation>%1 davor</translation>
    </message>
    <message>
        <source>streamed</source>
        <translation>gestreamt</translation>
    </message>
    <message>
        <source> B</source>
        <translation> B</translation>
    </message>
    <message>
        <source>(was) %1</source>
        <translation>(war) %1</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Idempotency-Key</source>
        <translation>Idempotency-Key</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>Body</translation>
    </message>
    <message>
        <source>Wait reason</source>
        <translation>Wartegrund</translation>
    </message>
</context>
<context>
    <name>SignInDialog</name>
    <message>
        <source>Sign In to wallabag</source>
        <translation>Bei wallabag anmelden</translation>
    </message>
    <message>
        <source>KeepTrying Reader reads the articles you saved with wallabag. Create an API client in wallabag (Developer ▸ Create a new client) for its client ID and secret.</source>
        <translation>KeepTrying Reader liest die Artikel, die Sie mit wallabag gespeichert haben. Legen Sie in wallabag einen API-Client an (Entwickler ▸ Neuen Client erstellen), um dessen Client-ID und Geheimnis zu erhalten.</translation>
    </message>
    <message>
        <source>Use the demo library (a built-in server on this computer)</source>
        <translation>Die Demo-Bibliothek verwenden (ein eingebauter Server auf diesem Computer)</translation>
    </message>
    <message>
        <source>&amp;Server address:</source>
        <translation>&amp;Serveradresse:</translation>
    </message>
    <message>
        <source>Client &amp;ID:</source>
        <translation>Client-&amp;ID:</translation>
    </message>
    <message>
        <source>Client s&amp;ecret:</source>
        <translation>Client-&amp;Geheimnis:</translation>
    </message>
    <message>
        <source>&amp;User name:</source>
        <translation>&amp;Benutzername:</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>&amp;Passwort:</translation>
    </message>
    <message>
        <source>Sign In</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>The secret and password are kept in your system keychain, never in a plain file.</source>
        <translation>Geheimnis und Passwort werden im Schlüsselbund Ihres Systems aufbewahrt, nie in einer einfachen Datei.</translation>
    </message>
    <message>
        <source>Saved for this session only: no keychain is available on this computer, so the secret and password are kept until the reader quits, never on disk.</source>
        <translation>Nur für diese Sitzung gespeichert: Auf diesem Computer ist kein Schlüsselbund verfügbar, daher werden Geheimnis und Passwort bis zum Beenden des Readers aufbewahrt, nie auf der Festplatte.</translation>
    </message>
    <message>
        <source>Signing In…</source>
        <translation>Anmeldung läuft …</translation>
    </message>
</context>
<context>
    <name>SignInFlow</name>
    <message>
        <source>Your password is needed again: this computer has no keychain to keep it between sessions. Your library and the changes waiting in it are here; type the password to send them.</source>
        <translation>Ihr Passwort wird erneut benötigt: Dieser Computer hat keinen Schlüsselbund, der es zwischen den Sitzungen aufbewahrt. Ihre Bibliothek und die darin wartenden Änderungen sind hier; geben Sie das Passwort ein, um sie zu senden.</translation>
    </message>
</context>
<context>
    <name>SignOutDialog</name>
    <message>
        <source>Sign Out</source>
        <translation>Abmelden</translation>
    </message>
    <message>
        <source>Your saved articles and the copies kept for reading offline will be removed from this computer, and the reader will forget your password. Nothing changes in your wallabag account: sign in again to read it here.</source>
        <translation>Ihre gespeicherten Artikel und die Kopien zum Offline-Lesen werden von diesem Computer entfernt, und der Reader vergisst Ihr Passwort. In Ihrem wallabag-Konto ändert sich nichts: Melden Sie sich wieder an, um es hier zu lesen.</translation>
    </message>
    <message>
        <source>&amp;Discard, never to be sent to the server</source>
        <translation>&amp;Verwerfen, ohne sie je an den Server zu senden</translation>
    </message>
    <message>
        <source>Sign out as %1 on %2?</source>
        <translation>Als %1 bei %2 abmelden?</translation>
    </message>
    <message>
        <source>1 change you made here has not reached the server yet.</source>
        <translation>1 Änderung, die Sie hier gemacht haben, ist noch nicht beim Server angekommen.</translation>
    </message>
    <message numerus="yes">
        <source>%n changes you made here have not reached the server yet.</source>
        <translation>
            <numerusform>%n Änderung, die Sie hier gemacht haben, ist noch nicht beim Server angekommen.</numerusform>
            <numerusform>%n Änderungen, die Sie hier gemacht haben, sind noch nicht beim Server angekommen.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Keep on this computer, to be sent when I sign in again as %1</source>
        <translation>Auf diesem Computer &amp;behalten und senden, sobald ich mich wieder als %1 anmelde</translation>
    </message>
</context>
<context>
    <name>SimulatedOfflineIndicator</name>
    <message>
        <source>Offline (simulated)</source>
        <translation>Offline (simuliert)</translation>
    </message>
    <message>
        <source>The reader acts as if there were no network: changes wait on this computer and are sent when Developer ▸ Simulate Offline is switched off.</source>
        <translation>Der Reader tut so, als gäbe es kein Netzwerk: Änderungen warten auf diesem Computer und werden gesendet, sobald Entwickler ▸ Offline simulieren ausgeschaltet wird.</translation>
    </message>
</context>
<context>
    <name>TagEditorDialog</name>
    <message>
        <source>Edit Tags</source>
        <translation>Schlagwörter bearbeiten</translation>
    </message>
    <message>
        <source>Tags of “%1”</source>
        <translation>Schlagwörter von „%1“</translation>
    </message>
    <message>
        <source>No tags yet.</source>
        <translation>Noch keine Schlagwörter.</translation>
    </message>
    <message>
        <source>Untick a tag to remove it.</source>
        <translation>Entfernen Sie das Häkchen, um ein Schlagwort zu entfernen.</translation>
    </message>
    <message>
        <source>Untick to remove “%1” from this article</source>
        <translation>Häkchen entfernen, um „%1“ von diesem Artikel zu entfernen</translation>
    </message>
    <message>
        <source>New tags, separated by commas</source>
        <translation>Neue Schlagwörter, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>&amp;Add:</source>
        <translation>&amp;Hinzufügen:</translation>
    </message>
</context>
<context>
    <name>UndoNotice</name>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>Take it back (Ctrl+Z)</source>
        <translation>Rückgängig machen (Strg+Z)</translation>
    </message>
</context>
<context>
    <name>WallabagClient</name>
    <message>
        <source>%1 pointed the list to another server (%2); the reader only talks to the server you signed in to.</source>
        <translation>%1 hat die Liste auf einen anderen Server verwiesen (%2); der Reader spricht nur mit dem Server, bei dem Sie angemeldet sind.</translation>
    </message>
    <message>
        <source>The server did not accept the user name “%1” or its password. Check them, then sign in again.</source>
        <translation>Der Server hat den Benutzernamen „%1“ oder sein Passwort nicht angenommen. Prüfen Sie beides und melden Sie sich erneut an.</translation>
    </message>
    <message>
        <source>The server did not accept the reader&apos;s client ID or secret. Check the API client you created in wallabag, then sign in with its ID and secret.</source>
        <translation>Der Server hat die Client-ID oder das Geheimnis des Readers nicht angenommen. Prüfen Sie den API-Client, den Sie in wallabag angelegt haben, und melden Sie sich mit dessen ID und Geheimnis an.</translation>
    </message>
    <message>
        <source>The connection to %1 failed: %2. Check the server address.</source>
        <translation>Die Verbindung zu %1 ist fehlgeschlagen: %2. Prüfen Sie die Serveradresse.</translation>
    </message>
    <message>
        <source>%1 no longer accepts this sign-in, even after signing in again. Check the user name and password, then sign in again.</source>
        <translation>%1 nimmt diese Anmeldung nicht mehr an, auch nicht nach erneuter Anmeldung. Prüfen Sie Benutzername und Passwort und melden Sie sich erneut an.</translation>
    </message>
    <message>
        <source>This article is no longer on the server: it may have been deleted elsewhere.</source>
        <translation>Dieser Artikel ist nicht mehr auf dem Server: Vielleicht wurde er anderswo gelöscht.</translation>
    </message>
    <message>
        <source>This address doesn&apos;t look like a wallabag server — check it in Sign In. It is the address you open wallabag at in a browser.</source>
        <translation>Diese Adresse sieht nicht nach einem wallabag-Server aus – prüfen Sie sie unter „Anmelden“. Es ist die Adresse, unter der Sie wallabag im Browser öffnen.</translation>
    </message>
    <message>
        <source>%1 has a problem of its own that trying again does not fix. Tell the server&apos;s administrator.</source>
        <translation>%1 hat ein eigenes Problem, das erneutes Versuchen nicht behebt. Wenden Sie sich an die Administration des Servers.</translation>
    </message>
    <message>
        <source>%1 did not accept this change, so it is not saved there.</source>
        <translation>%1 hat diese Änderung nicht angenommen; dort ist sie daher nicht gespeichert.</translation>
    </message>
    <message>
        <source>%1 refused the reader&apos;s request. Check the address in Sign In, or tell the server&apos;s administrator.</source>
        <translation>%1 hat die Anfrage des Readers abgelehnt. Prüfen Sie die Adresse unter „Anmelden“ oder wenden Sie sich an die Administration des Servers.</translation>
    </message>
    <message>
        <source>The reader did not connect to %1: its certificate is not one this computer trusts, so nothing was sent to it.</source>
        <translation>Der Reader hat sich nicht mit %1 verbunden: Dieser Computer vertraut seinem Zertifikat nicht, daher wurde nichts dorthin gesendet.</translation>
    </message>
    <message>
        <source>%1 does not let this account make this change or read this. Ask the server&apos;s administrator to allow it.</source>
        <translation>%1 erlaubt diesem Konto diese Änderung oder diesen Zugriff nicht. Bitten Sie die Administration des Servers, es zu erlauben.</translation>
    </message>
</context>
</TS>
