// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The "we keep trying" banner for QML: shown while the banner state has something to say
// (a request the user waits for is slow, retried, waiting for its server or for the
// network), hidden the moment it has not. Put it at the top of a page; it takes no room
// while hidden. The words are the state's (RetryBannerController::text, translated).
import QtQuick
import KeepTrying

Item {
    id: root

    // The state it shows: the engine's BannerState unless another controller is given.
    property RetryBannerController controller: BannerState
    // True while the banner is open or opening.
    readonly property bool shown: controller !== null && controller.shouldShow
    // The words shown (kept while the banner closes, so they do not change under the eye).
    readonly property alias text: label.text
    readonly property bool offline: controller !== null && controller.offline

    implicitHeight: shown ? frame.implicitHeight : 0
    clip: true
    visible: implicitHeight > 0 || heightAnimation.running

    Behavior on implicitHeight {
        NumberAnimation {
            id: heightAnimation
            duration: 200
            easing.type: Easing.OutCubic
        }
    }

    Rectangle {
        id: frame

        // Soft tints with dark text (contrast above 7:1), as the widget banner has: a calm
        // slate while offline, a light blue otherwise.
        readonly property color tint: root.offline ? "#eef1f5" : "#e7f1fc"
        readonly property color edge: root.offline ? "#c3cbd6" : "#a9c9ee"
        readonly property color ink: root.offline ? "#252f3d" : "#1d3557"
        readonly property color accent: root.offline ? "#526278" : "#2f6fbf"

        anchors {
            left: parent.left
            right: parent.right
            bottom: parent.bottom
        }
        implicitHeight: Math.max(label.implicitHeight, 22) + 18
        height: implicitHeight
        radius: 6
        color: tint
        border.color: edge

        // A ring that turns while the state keeps trying: something is happening.
        Item {
            id: spinner
            width: 18
            height: 18
            anchors {
                left: parent.left
                leftMargin: 12
                verticalCenter: parent.verticalCenter
            }
            Rectangle {
                anchors.fill: parent
                radius: width / 2
                color: "transparent"
                border.width: 2
                border.color: frame.edge
            }
            Rectangle {
                width: 6
                height: 6
                radius: 3
                color: frame.accent
                x: parent.width / 2 - width / 2
                y: -1
            }
            RotationAnimation on rotation {
                running: root.shown && !root.offline
                loops: Animation.Infinite
                from: 0
                to: 360
                duration: 1200
            }
        }

        Text {
            id: label
            anchors {
                left: spinner.right
                leftMargin: 10
                right: parent.right
                rightMargin: 14
                verticalCenter: parent.verticalCenter
            }
            wrapMode: Text.WordWrap
            color: frame.ink
            font.pixelSize: 14
            textFormat: Text.PlainText
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
    }

    // Follows the state's words; keeps the last ones while it closes, so that they do not
    // change under the eye.
    Connections {
        target: root.controller
        function onTextChanged() {
            if (root.controller.text !== "")
                label.text = root.controller.text
        }
    }
    Component.onCompleted: label.text = controller ? controller.text : ""
}
