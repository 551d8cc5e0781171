// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

import QtQuick
import KeepTrying

Window {
    id: window
    property string base
    property string screenshot
    property bool quitAfterResult
    width: 480; height: 360; visible: true
    title: "KeepTrying in QML"

    RetryBanner { id: banner; x: 12; y: 12; width: parent.width - 24 }

    Column {
        anchors { top: banner.bottom; topMargin: 12; left: parent.left; leftMargin: 12 }
        spacing: 8
        Text { id: title; text: "Loading the article…"; font { pixelSize: 18; bold: true } }
        Text { text: network.simulatedOffline ? "Simulated offline: on" : "Online"; color: "#526278" }
        Rectangle {
            width: 456; height: 200; radius: 6; color: "#f4f6f9"; clip: true
            Image {
                id: image; anchors.fill: parent; fillMode: Image.PreserveAspectCrop
                source: window.base + "/image.png"
                onStatusChanged: if (status === Image.Ready) window.loaded()
            }
            Text {
                anchors.centerIn: parent; color: "#526278"; visible: image.status !== Image.Ready
                text: image.status === Image.Loading ? "The picture waits for the network…" : "No picture"
            }
        }
    }

    function loaded() {
        if (image.status !== Image.Ready || title.text.startsWith("Loading")) return
        output.say("loaded: " + title.text + ", image " + image.sourceSize.width + "x" + image.sourceSize.height)
        if (quitAfterResult) Qt.quit()
    }
    Connections {
        target: banner
        function onShownChanged() { output.say(banner.shown ? "banner: " + BannerState.text : "banner hidden") }
    }
    Timer { // the window once the banner has opened, while the picture waits
        running: banner.shown && window.screenshot !== ""; interval: 500
        onTriggered: window.contentItem.grabToImage(r => output.say(r.saveToFile(window.screenshot)
                                                                    ? "screenshot saved" : "screenshot failed"))
    }
    Component.onCompleted: {
        output.say("image: " + (image.status === Image.Loading ? "loading" : image.status))
        const xhr = new XMLHttpRequest()
        xhr.onreadystatechange = () => {
            if (xhr.readyState !== XMLHttpRequest.DONE) return
            title.text = xhr.status === 200 ? JSON.parse(xhr.responseText).title : "HTTP " + xhr.status
            loaded()
        }
        xhr.open("GET", base + "/article.json")
        xhr.send()
    }
}
